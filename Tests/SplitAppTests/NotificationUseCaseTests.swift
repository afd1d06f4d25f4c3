import Foundation
import SplitApp
import SplitCore
import SplitStore
import SplitTestSupport
import Testing

@Suite("Notification inboxes, without HTTP (issue 17)")
struct NotificationUseCaseTests {
    static func inbox(_ trip: Trip) -> NotificationUseCases {
        NotificationUseCases(database: trip.database, now: { milliseconds() })
    }

    static func actions(_ trip: Trip, _ caller: Caller) async throws -> [String] {
        try await inbox(trip).inbox(caller: caller, cursor: nil, limit: nil).notifications.map(\.activity.action)
    }

    @Test("an expense reaches whom it concerns, never its author; 'all' and 'none' widen and silence", arguments: TestDatabases.all)
    func whoIsTold(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            let inbox = Self.inbox(trip)
            // act: Aki adds a ramen shared by Aki, Bo and Dee (Vic, a viewer, is not in it)
            let ramen = try await trip.create(trip.ramen())
            // validate
            #expect(try await Self.actions(trip, trip.bo).first == "expense.created")
            #expect(try await Self.actions(trip, trip.aki).contains("expense.created") == false)
            #expect(try await Self.actions(trip, trip.vic).contains("expense.created") == false)
            let page = try await inbox.inbox(caller: trip.bo, cursor: nil, limit: nil)
            #expect(page.unread >= 1)
            #expect(page.notifications.first?.activity.entityID == ramen.expense.id)
            #expect(page.notifications.first?.groupName == "Japan")
            // Vic wants everything, Bo nothing: the next expense reaches Vic, not Bo.
            #expect(try await inbox.setLevel("all", groupID: trip.groupID, caller: trip.vic) == .all)
            #expect(try await inbox.setLevel("none", groupID: trip.groupID, caller: trip.bo) == .none)
            let boBefore = try await inbox.unreadCount(caller: trip.bo)
            _ = try await trip.create(trip.ramen("600"))
            #expect(try await Self.actions(trip, trip.vic).first == "expense.created")
            #expect(try await inbox.unreadCount(caller: trip.bo) == boBefore)
            // Settings are each account's own, and only for groups it is in.
            #expect(try await inbox.level(groupID: trip.groupID, caller: trip.aki) == .mine)
            await #expect(throws: AppError.notFound("group")) {
                _ = try await inbox.setLevel("all", groupID: trip.groupID, caller: trip.stranger)
            }
            do {
                _ = try await inbox.setLevel("loud", groupID: trip.groupID, caller: trip.aki)
                Issue.record("a made-up level was taken")
            } catch AppError.invalid(let field, _) {
                #expect(field == "level")
            }
        }
    }

    @Test("a paid mark tells the payer with its reason; a removed member hears of it", arguments: TestDatabases.all)
    func paidMarkAndRemoval(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            let ramen = try await trip.create(trip.ramen())
            let boShare = try #require(ramen.expense.liveShares.first { $0.memberID == trip.boMember.uuid })
            // act: Bo marks his share paid, with a reason; Aki removes Bo
            _ = try await trip.expenses.setSharePaid(
                boShare.id, true, reason: "cash at dinner", caller: trip.bo, origin: trip.origin)
            #expect(try await Self.actions(trip, trip.bo).contains("expense.created"))
            let members = MemberUseCases(database: trip.database, now: { milliseconds() })
            _ = try await members.remove(
                trip.boMember.description, groupID: trip.groupID, confirmBalance: true, caller: trip.aki,
                origin: trip.origin)
            // validate
            let aki = try await Self.inbox(trip).inbox(caller: trip.aki, cursor: nil, limit: nil).notifications
            let paid = try #require(aki.first { $0.activity.action == "share.marked_paid" })
            #expect(paid.activity.event.reason == "cash at dinner")
            // The group's older lines leave his inbox with him (each led to a group he cannot open).
            #expect(try await Self.actions(trip, trip.bo) == ["member.removed"])
            // Nothing after the removal reaches him, though the ramen still names him.
            // (The delete moves the removed Bo's part, so it is confirmed.)
            _ = try await trip.expenses.setDeleted(
                ramen.expense.id, true, basedOn: nil, confirmRemovedShares: true, caller: trip.aki, origin: trip.origin)
            #expect(try await Self.actions(trip, trip.bo).first == "member.removed")
        }
    }

    @Test("an unmark tells the share's member why; a new role tells the member which; a payment request tells whom it asks", arguments: TestDatabases.all)
    func unmarkRoleAndRequest(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            let ramen = try await trip.create(trip.ramen())
            let boShare = try #require(ramen.expense.liveShares.first { $0.memberID == trip.boMember.uuid })
            _ = try await trip.expenses.setSharePaid(boShare.id, true, reason: "cash", caller: trip.bo, origin: trip.origin)
            // act: Aki unmarks Bo's share with a reason, makes Bo an admin, and asks Bo for 333 JPY
            _ = try await trip.expenses.setSharePaid(
                boShare.id, false, reason: "the note was fake", caller: trip.aki, origin: trip.origin)
            _ = try await MemberUseCases(database: trip.database, now: { milliseconds() }).update(
                trip.boMember.description, MemberPatch(role: .admin), groupID: trip.groupID, caller: trip.aki,
                origin: trip.origin)
            _ = try await PaymentRequestUseCases(database: trip.database, now: { milliseconds() }).create(
                EnteredPaymentRequest(amount: "333", currency: "JPY", toMemberId: trip.boMember.description),
                groupID: trip.groupID, caller: trip.aki, origin: trip.origin)
            // validate: Bo's inbox has all three, newest first, with what each was
            let bo = try await Self.inbox(trip).inbox(caller: trip.bo, cursor: nil, limit: nil).notifications
            // The three newest (writes in one millisecond have no order between them).
            #expect(Set(bo.map(\.activity.action).prefix(3)) == ["payment_request.created", "member.role_changed", "share.marked_unpaid"])
            #expect(bo.first { $0.activity.action == "share.marked_unpaid" }?.activity.event.reason == "the note was fake")
            #expect(bo.first { $0.activity.action == "member.role_changed" }?.activity.event.role == "admin")
            #expect(bo.first { $0.activity.action == "payment_request.created" }?.activity.event.amount == 333)
            // Vic (a viewer, 'mine') is asked nothing and hears of none of it.
            let vic = try await Self.actions(trip, trip.vic)
            #expect(!vic.contains("payment_request.created") && !vic.contains("member.role_changed") && !vic.contains("share.marked_unpaid"))
        }
    }

    @Test("marking read: someone else's ids mark nothing; all clears the count; pages follow the cursor", arguments: TestDatabases.all)
    func markingRead(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            let inbox = Self.inbox(trip)
            // Bo was told he was added to the group; that one is read first.
            #expect(try await Self.actions(trip, trip.bo) == ["member.added"])
            #expect(try await inbox.markRead(ids: nil, caller: trip.bo) == 0)
            for amount in ["300", "600", "900"] { _ = try await trip.create(trip.ramen(amount)) }
            let bo = try await inbox.inbox(caller: trip.bo, cursor: nil, limit: 2)
            #expect(bo.notifications.count == 2 && bo.nextCursor != nil && bo.unread == 3)
            let rest = try await inbox.inbox(caller: trip.bo, cursor: bo.nextCursor, limit: 2)
            #expect(rest.notifications.map(\.activity.action) == ["expense.created", "member.added"])
            #expect(Set((bo.notifications + rest.notifications).map(\.activity.id)).count == 4)
            // Dee has no account; Aki's inbox has none of these: Bo's ids in Aki's hands mark nothing.
            let ids = bo.notifications.map(\.activity.id.uuidString)
            #expect(try await inbox.markRead(ids: ids, caller: trip.aki) == 0)
            #expect(try await inbox.unreadCount(caller: trip.bo) == 3)
            #expect(try await inbox.markRead(ids: [ids[0]], caller: trip.bo) == 2)
            #expect(try await inbox.markRead(ids: nil, caller: trip.bo) == 0)
            do {
                _ = try await inbox.markRead(ids: ["nope"], caller: trip.bo)
                Issue.record("a made-up id was taken")
            } catch AppError.invalid(let field, _) {
                #expect(field == "ids[0]")
            }
            do {
                _ = try await inbox.inbox(caller: trip.bo, cursor: "x", limit: nil)
                Issue.record("a made-up cursor was taken")
            } catch AppError.invalid(let field, _) {
                #expect(field == "cursor")
            }
        }
    }

    @Test("a new notification is said on the recipient's live stream", arguments: TestDatabases.all)
    func onTheStream(backend: Database.Backend) async throws {
        try await Trip.with(backend) { trip in
            try await listening(trip.database) {
                let live = LiveUseCases(database: trip.database, now: { milliseconds() })
                let reader = StreamReader(try await live.open(caller: trip.bo, groupID: nil, lastEventID: nil))
                _ = try await trip.create(trip.ramen())
                #expect(await reader.wait { $0.messages.contains(.notification) }, "\(reader.report)")
            }
        }
    }
}
