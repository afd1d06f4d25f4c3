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
        pages.get("/account/tokens") { request, _ in try await self.tokensPage(request) }
        pages.post("/account/tokens") { request, _ in try await self.createToken(request) }
        pages.post("/account/tokens/:tokenId/revoke") { request, context in
            try await self.revokeToken(request, context: context)
        }
        pages.post("/account/sessions/revoke-others") { request, _ in try await self.revokeOtherSessions(request) }
        pages.post("/account/delete") { request, _ in try await self.deleteAccount(request) }
        pages.post("/account/sessions/:sessionId/revoke") { request, context in
            try await self.revokeSession(request, context: context)
        }

        pages.get("/forgot-password") { request, _ in try await self.forgotPasswordPage(request) }
        pages.post("/forgot-password") { request, _ in try await self.forgotPassword(request) }
        pages.get("/reset-password/:token") { request, context in
            try await self.resetPasswordPage(request, context: context)
        }
        pages.post("/reset-password/:token") { request, context in
            try await self.resetPassword(request, context: context)
        }
        pages.get("/verify-email/:token") { request, context in try await self.verifyEmailPage(request, context: context) }
        pages.post("/verify-email/:token") { request, context in try await self.verifyEmail(request, context: context) }
        pages.get("/unsubscribe/:key/:category") { request, context in
            try await self.unsubscribePage(request, context: context)
        }
        // Outside the pages' middleware: RFC 8058's one-click POST has no cookie and no CSRF token.
        router.post("/unsubscribe/:key/:category") { request, context in
            try await self.unsubscribe(request, context: context)
        }
        pages.post("/account/email") { request, _ in try await self.updateMailSettings(request) }
        pages.post("/account/pay-details") { request, _ in try await self.savePayDetails(request) }
        pages.post("/account/email/verification") { request, _ in try await self.requestVerification(request) }
        pages.get("/notifications") { request, _ in try await self.notificationsPage(request) }
        pages.post("/notifications/read") { request, _ in try await self.markNotificationsRead(request) }
        pages.get("/groups") { request, _ in try await self.groupsPage(request) }
        pages.get("/me") { request, _ in try await self.mePage(request) }
        pages.post("/groups") { request, _ in try await self.createGroup(request) }
        pages.get("/join/:code") { request, context in try await self.joinPage(request, context: context) }
        pages.post("/join/:code") { request, context in try await self.join(request, context: context) }
        pages.get("/groups/:groupId") { request, context in try await self.overviewPage(request, context: context) }

        pages.get("/groups/:groupId/expenses") { request, context in
            try await self.expensesPage(request, context: context)
        }
        pages.post("/groups/:groupId/expenses") { request, context in
            try await self.createExpense(request, context: context)
        }
        pages.get("/groups/:groupId/expenses/new") { request, context in
            try await self.newExpensePage(request, context: context)
        }
        pages.get("/groups/:groupId/assistant") { request, context in
            try await self.assistantPage(request, context: context)
        }
        pages.post("/groups/:groupId/assistant") { request, context in
            try await self.sayToAssistant(request, context: context)
        }
        pages.post("/groups/:groupId/assistant/stream") { request, context in
            try await self.assistantStream(request, context: context)
        }
        pages.post("/groups/:groupId/quick") { request, context in try await self.quickEntry(request, context: context) }
        pages.post("/groups/:groupId/quick/preview") { request, context in
            try await self.quickPreviewFragment(request, context: context)
        }
        pages.post("/groups/:groupId/expenses/preview") { request, context in
            try await self.previewFragment(request, context: context)
        }
        pages.get("/expenses/:expenseId") { request, context in try await self.expensePage(request, context: context) }
        pages.get("/expenses/:expenseId/edit") { request, context in
            try await self.editExpensePage(request, context: context)
        }
        pages.post("/expenses/:expenseId/edit") { request, context in
            try await self.updateExpense(request, context: context)
        }
        pages.post("/expenses/:expenseId/delete") { request, context in
            try await self.deleteExpense(request, context: context)
        }
        pages.post("/expenses/:expenseId/restore") { request, context in
            try await self.restoreExpense(request, context: context)
        }
        pages.post("/expenses/:expenseId/shares/:splitId/payment") { request, context in
            try await self.setSharePayment(request, context: context)
        }

        pages.get("/groups/:groupId/balances") { request, context in
            try await self.balancesPage(request, context: context)
        }
        pages.post("/groups/:groupId/settlements") { request, context in
            try await self.recordSettlement(request, context: context)
        }
        pages.post("/groups/:groupId/settlements/:settlementId/delete") { request, context in
            try await self.deleteSettlement(request, context: context)
        }
        pages.post("/groups/:groupId/requests") { request, context in
            try await self.createPaymentRequest(request, context: context)
        }
        pages.get("/groups/:groupId/requests/:requestId") { request, context in
            try await self.paymentRequestPage(request, context: context)
        }
        pages.post("/groups/:groupId/requests/:requestId/cancel") { request, context in
            try await self.cancelPaymentRequest(request, context: context)
        }
        pages.get("/pay/:code") { request, context in try await self.payPage(request, context: context) }
        pages.post("/pay/:code/lock") { request, context in try await self.lockPayCode(request, context: context) }
        pages.post("/pay/:code/pay") { request, context in try await self.payCode(request, context: context) }
        pages.get("/groups/:groupId/budget") { request, context in try await self.budgetPage(request, context: context) }
        pages.post("/groups/:groupId/budget") { request, context in try await self.saveBudget(request, context: context) }
        pages.get("/groups/:groupId/recurring") { request, context in
            try await self.recurringPage(request, context: context)
        }
        pages.post("/groups/:groupId/recurring") { request, context in
            try await self.createRecurring(request, context: context)
        }
        pages.get("/groups/:groupId/recurring/new") { request, context in
            try await self.newRecurringPage(request, context: context)
        }
        pages.post("/recurring/:recurringId") { request, context in try await self.seriesAction(request, context: context) }
        pages.get("/recurring/:recurringId/edit") { request, context in
            try await self.editSeriesPage(request, context: context)
        }
        pages.post("/recurring/:recurringId/edit") { request, context in
            try await self.updateSeries(request, context: context)
        }
        pages.post("/pending/:pendingId/confirm") { request, context in
            try await self.confirmPendingAction(request, context: context)
        }
        pages.post("/pending/:pendingId/dismiss") { request, context in
            try await self.dismissPendingAction(request, context: context)
        }
        pages.get("/pending/:pendingId/edit") { request, context in
            try await self.editPendingPage(request, context: context)
        }
        pages.post("/pending/:pendingId/edit") { request, context in
            try await self.confirmEditedPending(request, context: context)
        }
        pages.get("/me/budget") { request, context in try await self.myBudgetPage(request, context: context) }
        pages.post("/me/budget") { request, context in try await self.saveMyBudget(request, context: context) }
        pages.get("/groups/:groupId/members") { request, context in
            try await self.membersPage(request, context: context)
        }
        pages.post("/groups/:groupId/members") { request, context in
            try await self.addMember(request, context: context)
        }
        pages.post("/groups/:groupId/members/:memberId") { request, context in
            try await self.updateMember(request, context: context)
        }
        pages.post("/groups/:groupId/members/:memberId/owner") { request, context in
            try await self.makeOwner(request, context: context)
        }
        pages.post("/groups/:groupId/members/:memberId/remove") { request, context in
            try await self.removeMember(request, context: context)
        }
        pages.post("/groups/:groupId/members/:memberId/restore") { request, context in
            try await self.restoreMember(request, context: context)
        }
        pages.post("/groups/:groupId/claims/:memberId/approve") { request, context in
            try await self.decideClaim(request, context: context, approve: true)
        }
        pages.post("/groups/:groupId/claims/:memberId/reject") { request, context in
            try await self.decideClaim(request, context: context, approve: false)
        }
        pages.get("/groups/:groupId/settings") { request, context in
            try await self.settingsPage(request, context: context)
        }
        pages.post("/groups/:groupId/settings") { request, context in
            try await self.updateSettings(request, context: context)
        }
        pages.get("/groups/:groupId/webhooks") { request, context in
            try await self.webhooksPage(request, context: context)
        }
        pages.post("/groups/:groupId/webhooks") { request, context in
            try await self.updateWebhooks(request, context: context)
        }
        pages.get("/groups/:groupId/webhooks/:webhookId") { request, context in
            try await self.webhookLogPage(request, context: context)
        }
        pages.get("/account/export") { request, context in try await self.exportAccountFile(request, context: context) }
        pages.get("/import") { request, context in try await self.importPage(request, context: context) }
        pages.post("/import") { request, context in try await self.importFile(request, context: context) }
        pages.get("/groups/:groupId/import") { request, context in
            try await self.importPage(request, context: context)
        }
        pages.post("/groups/:groupId/import") { request, context in
            try await self.importFile(request, context: context)
        }
        pages.get("/groups/:groupId/export") { request, context in
            try await self.exportFile(request, context: context)
        }
    }
}
