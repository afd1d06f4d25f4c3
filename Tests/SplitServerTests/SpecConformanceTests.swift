import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession
import SplitAPI
import SplitStore
import SplitTestSupport
import Testing

/// The spec served at /openapi.yaml matches what the server does: every operation is called
/// through the client generated from that spec, against the real binary, and each answer must
/// decode as the documented response — an undocumented status or a body that does not match the
/// schema fails the test.
@Suite("The server answers as its OpenAPI spec says")
struct SpecConformanceTests {
    struct Bearer: ClientMiddleware {
        let token: String
        func intercept(
            _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
            next: (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
        ) async throws -> (HTTPResponse, HTTPBody?) {
            var request = request
            request.headerFields[.authorization] = "Bearer \(token)"
            return try await next(request, body, baseURL)
        }
    }

    @Test("every operation through the generated client, success and error answers")
    func everyOperation() async throws {
        try await TestDatabases.withConfiguration(.sqlite) { database in
            guard case .sqlite(let path) = database else { return }
            let server = try await ServerProcess(environment: ["DATABASE_URL": "sqlite:\(path)"])
            do {
                try await Self.run(server.baseURL)
            } catch {
                _ = try? await server.stop()
                Issue.record("server log:\n\(server.log)")
                throw error
            }
            _ = try await server.stop()
        }
    }

    static func run(_ base: URL) async throws {
        let anonymous = Client(serverURL: base, transport: URLSessionTransport())
        #expect(try await anonymous.getHealth().ok.body.json.status == .ok)

        // Accounts.
        let aki = try await anonymous.register(
            body: .json(.init(email: "aki@example.com", password: "correct horse", displayName: "Aki"))
        ).created.body.json
        let ben = try await anonymous.register(
            body: .json(.init(phone: "+60 12 345 6789", password: "correct horse", displayName: "Ben"))
        ).created.body.json
        let akiClient = Client(
            serverURL: base, transport: URLSessionTransport(), middlewares: [Bearer(token: aki.token)])
        let benClient = Client(
            serverURL: base, transport: URLSessionTransport(), middlewares: [Bearer(token: ben.token)])
        let second = try await anonymous.login(
            body: .json(.init(emailOrPhone: "aki@example.com", password: "correct horse"))
        )
        .ok.body.json
        #expect(try await akiClient.getMe().ok.body.json.user.id == aki.user.id)
        let renamed = try await akiClient.updateMe(body: .json(.init(displayName: "Aki T"))).ok.body.json.user
        #expect(renamed.displayName == "Aki T" && renamed.id == aki.user.id)
        guard case .default(422, _) = try await akiClient.updateMe(body: .json(.init(email: "aki2@example.com"))) else {
            Issue.record("a new email without the password is not a documented 422")
            return
        }
        #expect(try await akiClient.listSessions().ok.body.json.sessions.count == 2)
        _ = try await akiClient.revokeSession(path: .init(sessionId: second.sessionId)).noContent
        _ = try await akiClient.changePassword(
            body: .json(.init(currentPassword: "correct horse", newPassword: "battery staple"))
        ).noContent

        // Groups and members.
        let group = try await akiClient.createGroup(body: .json(.init(name: "Japan", homeCurrency: "JPY"))).created.body
            .json
            .group
        let groupPath = Operations.GetGroup.Input.Path(groupId: group.id)
        #expect(try await akiClient.listGroups().ok.body.json.groups.map(\.id) == [group.id])
        _ = try await akiClient.getGroup(path: groupPath).ok
        _ = try await akiClient.updateGroup(
            path: .init(groupId: group.id), body: .json(.init(name: "Japan 2026", version: group.version))
        ).ok
        let code = try #require(
            try await akiClient.rotateInviteCode(path: .init(groupId: group.id)).ok.body.json.group.inviteCode)
        let joined = try await benClient.joinGroup(body: .json(.init(inviteCode: code))).ok.body.json
        let dan = try await akiClient.addMember(path: .init(groupId: group.id), body: .json(.init(name: "Dan")))
            .created.body.json.member
        _ = try await akiClient.updateMember(
            path: .init(groupId: group.id, memberId: joined.member.id), body: .json(.init(role: .admin))
        ).ok
        #expect(try await benClient.listMembers(path: .init(groupId: group.id)).ok.body.json.members.count == 3)
        _ = try await akiClient.removeMember(path: .init(groupId: group.id, memberId: dan.id)).ok
        _ = try await akiClient.disableInviteCode(path: .init(groupId: group.id)).ok
        _ = try await akiClient.archiveGroup(path: .init(groupId: group.id)).ok
        _ = try await akiClient.unarchiveGroup(path: .init(groupId: group.id)).ok
        let moved = try await akiClient.transferOwnership(
            path: .init(groupId: group.id), body: .json(.init(memberId: joined.member.id))
        ).ok.body.json.group
        #expect(moved.ownerId == ben.user.id)

        // Issue 4: categories, expenses, shares, settlements, balances, rates, activity, changes.
        let groupID = group.id
        let categories = try await akiClient.listCategories(path: .init(groupId: groupID)).ok.body.json.categories
        #expect(categories.count == 6)
        let onsen = try await akiClient.createCategory(
            path: .init(groupId: groupID), body: .json(.init(name: "Onsen", icon: "♨️", color: "#AA3300"))
        ).created.body.json.category
        _ = try await akiClient.updateCategory(
            path: .init(groupId: groupID, categoryId: onsen.id),
            body: .json(.init(name: "Hot spring", version: onsen.version))
        ).ok
        _ = try await akiClient.reorderCategories(
            path: .init(groupId: groupID), body: .json(.init(categoryIds: ([onsen.id] + categories.map(\.id))))
        ).ok
        let expense = try await akiClient.createExpense(
            headers: .init(idempotencyKey: "conformance-1"),
            body: .json(
                .init(
                    groupId: groupID, description: "Dinner", amount: "3000", currency: "JPY", category: "Meal",
                    expenseDate: "2026-11-20", paidBy: [.init(memberId: moved.myMemberId, amount: "3000")],
                    split: .init(mode: .equal, memberIds: [moved.myMemberId, joined.member.id])))
        ).created.body.json.expense
        #expect(expense.categoryName == "Meal")
        _ = try await akiClient.getExpense(path: .init(expenseId: expense.id)).ok
        _ = try await akiClient.listExpenses(path: .init(groupId: groupID), query: .init(q: "dinner", limit: 10)).ok
        let edited = try await akiClient.updateExpense(
            path: .init(expenseId: expense.id), body: .json(.init(description: "Late dinner", version: expense.version))
        ).ok.body.json.expense
        _ = try await akiClient.replaceExpense(
            path: .init(expenseId: expense.id), headers: .init(ifMatch: String(edited.version)),
            body: .json(.init(category: onsen.id))
        ).ok
        let benShare = try #require(expense.splits.first { $0.memberId == joined.member.id })
        _ = try await benClient.setSharePayment(
            path: .init(splitId: benShare.id), body: .json(.init(isPaid: true, reason: "cash"))
        ).ok
        #expect(try await akiClient.getShareHistory(path: .init(splitId: benShare.id)).ok.body.json.history.count == 1)
        let transfer = try await akiClient.createSettlement(
            path: .init(groupId: groupID), headers: .init(idempotencyKey: "conformance-2"),
            body: .json(
                .init(fromMemberId: moved.myMemberId, toMemberId: joined.member.id, amount: "500", currency: "JPY"))
        ).created.body.json.settlement
        #expect(try await akiClient.listSettlements(path: .init(groupId: groupID)).ok.body.json.settlements.count == 2)
        _ = try await akiClient.deleteSettlement(path: .init(settlementId: transfer.id)).ok
        _ = try await akiClient.putRates(
            path: .init(groupId: groupID),
            body: .json(.init(rates: [.init(fromCurrency: "USD", toCurrency: "JPY", date: "2026-11-20", rate: "150")]))
        ).ok
        let rates = try await akiClient.listRates(path: .init(groupId: groupID)).ok.body.json.rates
        #expect(rates.map(\.counts) == [true])
        _ = try await akiClient.putRates(
            path: .init(groupId: groupID),
            body: .json(.init(rates: [.init(fromCurrency: "USD", toCurrency: "JPY", date: "2026-11-19", rate: "1500")]))
        ).ok
        let left = try await akiClient.deleteRate(
            path: .init(groupId: groupID), query: .init(fromCurrency: "USD", toCurrency: "JPY", date: "2026-11-19")
        ).ok.body.json.rates
        #expect(left.map(\.date) == ["2026-11-20"])
        let gone = try await akiClient.deleteRate(
            path: .init(groupId: groupID), query: .init(fromCurrency: "USD", toCurrency: "JPY", date: "2026-11-19"))
        guard case .default(404, _) = gone else {
            Issue.record("a rate deleted twice is not a documented 404: \(gone)")
            return
        }
        _ = try await akiClient.getBalances(path: .init(groupId: groupID)).ok
        _ = try await akiClient.getSettlementPlan(path: .init(groupId: groupID), query: .init(currency: "JPY")).ok
        _ = try await akiClient.getPairwiseDebts(path: .init(groupId: groupID)).ok
        _ = try await akiClient.listActivity(path: .init(groupId: groupID), query: .init(limit: 5)).ok
        let changes = try await akiClient.listChanges(path: .init(groupId: groupID), query: .init(since: "0")).ok.body
            .json
        #expect(changes.expenses.map(\.id) == [expense.id])
        _ = try await akiClient.deleteExpense(path: .init(expenseId: expense.id)).ok
        _ = try await akiClient.restoreExpense(path: .init(expenseId: expense.id)).ok
        _ = try await akiClient.deleteCategory(path: .init(groupId: groupID, categoryId: onsen.id)).noContent
        // Issue 20: budgets, recurring expenses and the pending queue.
        let meal = try #require(categories.first { $0.name == "Meal" })
        let budget = try await akiClient.putBudget(
            path: .init(groupId: groupID),
            body: .json(.init(period: .month, total: "100000", caps: [.init(categoryId: meal.id, amount: "20000")]))
        ).ok.body.json
        #expect(budget.budget?.total == "100000" && budget.lines.contains { $0.categoryId == meal.id })
        _ = try await benClient.getBudget(path: .init(groupId: groupID), query: .init(month: "2026-11")).ok
        _ = try await akiClient.bulkUpdateBudgetCaps(
            path: .init(groupId: groupID), body: .json(.init(caps: [.init(categoryId: meal.id, amount: "30000")]))
        ).ok
        _ = try await akiClient.deleteBudget(path: .init(groupId: groupID)).noContent
        _ = try await akiClient.putMyBudget(body: .json(.init(currency: "JPY", total: "50000"))).ok
        _ = try await akiClient.getMyBudget(query: .init(month: "2026-11")).ok
        _ = try await akiClient.deleteMyBudget().noContent
        let series = try await akiClient.createRecurring(
            path: .init(groupId: groupID),
            body: .json(
                .init(
                    expense: .init(
                        description: "Wifi", amount: "3000", currency: "JPY", paidByMemberId: moved.myMemberId,
                        split: .init(mode: .equal, memberIds: [moved.myMemberId, joined.member.id])),
                    rule: .init(every: .month, startDate: "2026-01-15"), mode: .confirm))
        ).created.body.json.recurring
        _ = try await benClient.listRecurring(path: .init(groupId: groupID)).ok
        _ = try await akiClient.getRecurring(path: .init(recurringId: series.id)).ok
        let paused = try await akiClient.updateRecurring(
            path: .init(recurringId: series.id), body: .json(.init(version: series.version, state: .paused))
        ).ok.body.json.recurring
        #expect(paused.state == .paused)
        let waiting = try await akiClient.listPending(path: .init(groupId: groupID)).ok.body.json.pending
        #expect(waiting.count >= 10)
        _ = try await benClient.confirmPending(path: .init(pendingId: waiting[0].id), body: .json(.init())).created
        // No body at all: confirmed as it is.
        _ = try await benClient.confirmPending(path: .init(pendingId: waiting[2].id)).created
        _ = try await benClient.dismissPending(path: .init(pendingId: waiting[1].id)).noContent
        // The rest at once: as many as still waited (at least ten came due, three decided above).
        let rest = try await benClient.dismissWaiting(path: .init(recurringId: series.id)).ok.body.json.dismissed
        #expect(rest == waiting.count - 3, "\(rest) of \(waiting.count)")
        #expect(try await akiClient.listPending(path: .init(groupId: groupID)).ok.body.json.pending.isEmpty)
        #expect(try await benClient.dismissWaiting(path: .init(recurringId: series.id)).ok.body.json.dismissed == 0)
        _ = try await akiClient.endRecurring(path: .init(recurringId: series.id)).ok
        // Issue 21: quick entry, a preview and a save.
        let preview = try await akiClient.quickEntry(
            path: .init(groupId: groupID), body: .json(.init(text: "Ramen ¥1200 paid by Aki all"))
        ).ok.body.json
        #expect(preview.problems.isEmpty && preview.splits?.count == 2 && preview.expense?.amount == "1200")
        let asked = try await akiClient.quickEntry(path: .init(groupId: groupID), body: .json(.init(text: "Coffee $5 all")))
            .ok.body.json
        #expect(asked.problems.map(\.code) == ["which_currency"])
        _ = try await akiClient.quickEntry(
            path: .init(groupId: groupID), headers: .init(idempotencyKey: "quick-1"),
            body: .json(.init(text: "Taxi 1800 all", dryRun: false))
        ).created

        let stale = try await akiClient.updateExpense(
            path: .init(expenseId: expense.id), body: .json(.init(description: "Old", version: 1)))
        guard case .default(412, _) = stale else {
            Issue.record("a stale version is not the documented 412: \(stale)")
            return
        }

        // Errors come back as the documented envelope.
        let missing = try await akiClient.getGroup(path: .init(groupId: UUID().uuidString))
        guard case .default(let status, let payload) = missing else {
            Issue.record("an unknown group is not the documented error: \(missing)")
            return
        }
        let missingCode = try payload.body.json.error.code
        #expect(status == 404 && missingCode == "not_found")
        let refused = try await anonymous.login(
            body: .json(.init(emailOrPhone: "aki@example.com", password: "nope nope")))
        guard case .default(401, let envelope) = refused else {
            Issue.record("a wrong password is not the documented 401: \(refused)")
            return
        }
        let refusedCode = try envelope.body.json.error.code
        #expect(refusedCode == "invalid_credentials")
        _ = try await benClient.logout().noContent
        guard case .default(401, _) = try await benClient.getMe() else {
            Issue.record("a logged-out token still works")
            return
        }
    }
}
