import Hummingbird
import NIOCore

extension WebApp {
    /// Every page, under `WebMiddleware`; static files outside it (no cookies, cacheable).
    func register(on router: Router<AppRequestContext>) {
        router.get("/static/:file") { _, context in
            guard let asset = self.assets[try context.parameters.require("file")] else {
                throw HTTPError(.notFound)
            }
            return Response(
                status: .ok,
                headers: [
                    .contentType: asset.contentType, .cacheControl: "public, max-age=3600",
                    .init("X-Content-Type-Options")!: "nosniff",
                ],
                body: .init(byteBuffer: asset.bytes))
        }

        let pages = router.group().add(middleware: WebMiddleware(app: self))
        pages.get("/") { _, _ in
            Self.redirect(try WebRequest.get().sessionToken == nil ? "/login" : "/groups")
        }
        pages.get("/login") { request, _ in try await self.loginPage(request) }
        pages.post("/login") { request, _ in try await self.login(request) }
        pages.get("/register") { request, _ in try await self.registerPage(request) }
        pages.post("/register") { request, _ in try await self.register(request) }
        pages.post("/logout") { request, _ in try await self.logout(request) }
        pages.get("/account") { request, _ in try await self.accountPage(request) }
        pages.post("/account/password") { request, _ in try await self.changePassword(request) }
        pages.post("/account/profile") { request, _ in try await self.updateProfile(request) }
        pages.get("/account/tokens") { request, _ in try await self.tokensPage(request) }
        pages.post("/account/tokens") { request, _ in try await self.createToken(request) }
        pages.post("/account/tokens/:tokenId/revoke", use: revokeToken)
        pages.post("/account/sessions/revoke-others") { request, _ in try await self.revokeOtherSessions(request) }
        pages.post("/account/delete") { request, _ in try await self.deleteAccount(request) }
        pages.post("/account/sessions/:sessionId/revoke", use: revokeSession)

        pages.get("/forgot-password") { request, _ in try await self.forgotPasswordPage(request) }
        pages.post("/forgot-password") { request, _ in try await self.forgotPassword(request) }
        pages.get("/reset-password/:token", use: resetPasswordPage)
        pages.post("/reset-password/:token", use: resetPassword)
        pages.get("/verify-email/:token", use: verifyEmailPage)
        pages.post("/verify-email/:token", use: verifyEmail)
        pages.get("/unsubscribe/:key/:category", use: unsubscribePage)
        // Outside the pages' middleware: RFC 8058's one-click POST has no cookie and no CSRF token.
        router.post("/unsubscribe/:key/:category", use: unsubscribe)
        pages.post("/account/email") { request, _ in try await self.updateMailSettings(request) }
        pages.post("/account/pay-details") { request, _ in try await self.savePayDetails(request) }
        pages.post("/account/email/verification") { request, _ in try await self.requestVerification(request) }
        pages.get("/notifications") { request, _ in try await self.notificationsPage(request) }
        pages.post("/notifications/read") { request, _ in try await self.markNotificationsRead(request) }
        pages.get("/groups") { request, _ in try await self.groupsPage(request) }
        pages.get("/me") { request, _ in try await self.mePage(request) }
        pages.post("/groups") { request, _ in try await self.createGroup(request) }
        pages.get("/join/:code", use: joinPage)
        pages.post("/join/:code", use: join)
        pages.get("/groups/:groupId", use: overviewPage)

        pages.get("/groups/:groupId/expenses", use: expensesPage)
        pages.post("/groups/:groupId/expenses", use: createExpense)
        pages.get("/groups/:groupId/expenses/new", use: newExpensePage)
        pages.get("/groups/:groupId/assistant", use: assistantPage)
        pages.post("/groups/:groupId/assistant", use: sayToAssistant)
        pages.post("/groups/:groupId/assistant/stream", use: assistantStream)
        pages.post("/groups/:groupId/quick", use: quickEntry)
        pages.post("/groups/:groupId/quick/preview", use: quickPreviewFragment)
        pages.post("/groups/:groupId/expenses/preview", use: previewFragment)
        pages.get("/expenses/:expenseId", use: expensePage)
        pages.get("/expenses/:expenseId/edit", use: editExpensePage)
        pages.post("/expenses/:expenseId/edit", use: updateExpense)
        pages.post("/expenses/:expenseId/delete", use: deleteExpense)
        pages.post("/expenses/:expenseId/restore", use: restoreExpense)
        pages.post("/expenses/:expenseId/shares/:splitId/payment", use: setSharePayment)

        pages.get("/groups/:groupId/balances", use: balancesPage)
        pages.post("/groups/:groupId/settlements", use: recordSettlement)
        pages.get("/groups/:groupId/settlements/:settlementId/delete", use: confirmDeleteSettlement)
        pages.post("/groups/:groupId/settlements/:settlementId/delete", use: deleteSettlement)
        pages.post("/groups/:groupId/requests", use: createPaymentRequest)
        pages.get("/groups/:groupId/requests/:requestId", use: paymentRequestPage)
        pages.post("/groups/:groupId/requests/:requestId/cancel", use: cancelPaymentRequest)
        pages.get("/pay", use: payByCodePage)
        pages.get("/pay/:code", use: payPage)
        pages.post("/pay/:code/lock", use: lockPayCode)
        pages.post("/pay/:code/pay", use: payCode)
        pages.get("/groups/:groupId/budget", use: budgetPage)
        pages.post("/groups/:groupId/budget", use: saveBudget)
        pages.get("/groups/:groupId/recurring", use: recurringPage)
        pages.post("/groups/:groupId/recurring", use: createRecurring)
        pages.get("/groups/:groupId/recurring/new", use: newRecurringPage)
        pages.post("/recurring/:recurringId", use: seriesAction)
        pages.post("/recurring/:recurringId/dismiss-waiting", use: dismissWaitingAction)
        pages.get("/recurring/:recurringId/edit", use: editSeriesPage)
        pages.post("/recurring/:recurringId/edit", use: updateSeries)
        pages.post("/pending/:pendingId/confirm", use: confirmPendingAction)
        pages.post("/pending/:pendingId/dismiss", use: dismissPendingAction)
        pages.get("/pending/:pendingId/edit", use: editPendingPage)
        pages.post("/pending/:pendingId/edit", use: confirmEditedPending)
        pages.get("/me/budget", use: myBudgetPage)
        pages.post("/me/budget", use: saveMyBudget)
        pages.get("/groups/:groupId/members", use: membersPage)
        pages.post("/groups/:groupId/members", use: addMember)
        pages.post("/groups/:groupId/members/:memberId", use: updateMember)
        pages.post("/groups/:groupId/members/:memberId/owner", use: makeOwner)
        pages.post("/groups/:groupId/members/:memberId/remove", use: removeMember)
        pages.post("/groups/:groupId/members/:memberId/restore", use: restoreMember)
        pages.get("/groups/:groupId/leave", use: leavePage)
        pages.post("/groups/:groupId/leave", use: leaveGroup)
        pages.post("/groups/:groupId/claims/:memberId/approve") { request, context in
            try await self.decideClaim(request, context: context, approve: true)
        }
        pages.post("/groups/:groupId/claims/:memberId/reject") { request, context in
            try await self.decideClaim(request, context: context, approve: false)
        }
        pages.get("/groups/:groupId/settings", use: settingsPage)
        pages.get("/groups/:groupId/rates/delete", use: confirmDeleteRate)
        pages.get("/groups/:groupId/archive", use: confirmArchive)
        pages.get("/groups/:groupId/activity", use: activityPage)
        pages.post("/groups/:groupId/settings", use: updateSettings)
        pages.get("/groups/:groupId/webhooks", use: webhooksPage)
        pages.post("/groups/:groupId/webhooks", use: updateWebhooks)
        pages.get("/groups/:groupId/webhooks/:webhookId", use: webhookLogPage)
        pages.get("/account/export", use: exportAccountFile)
        pages.get("/import", use: importPage)
        pages.post("/import", use: importFile)
        pages.get("/groups/:groupId/import", use: importPage)
        pages.post("/groups/:groupId/import", use: importFile)
        pages.get("/groups/:groupId/export", use: exportFile)
    }
}
