import Testing

@testable import SplitCore

@Suite("Permissions: the DESIGN §4 table")
struct PermissionsTests {
    let owner = Membership(role: .owner)
    let admin = Membership(role: .admin)
    let member = Membership(role: .member)
    let viewer = Membership(role: .viewer)

    func decide(_ action: GroupAction, _ membership: Membership?) -> Decision {
        Permissions.decide(action, for: membership)
    }

    @Test("not a member, or no longer one: 404 for everything, like an unknown id")
    func nonMembers() {
        var removed = member
        removed.isActive = false
        for action in [GroupAction.read, .addExpense, .editExpense(isOwn: true), .seeAuditDetails] {
            #expect(decide(action, nil) == .notFound)
            #expect(decide(action, removed) == .notFound)
        }
    }

    @Test("everyone in the group reads")
    func reading() {
        for role in [owner, admin, member, viewer] { #expect(decide(.read, role) == .allowed) }
    }

    @Test("adding expenses: owner, admin, a member with the flag; never a viewer")
    func adding() {
        #expect(decide(.addExpense, owner) == .allowed)
        #expect(decide(.addExpense, admin) == .allowed)
        #expect(decide(.addExpense, member) == .allowed)
        var restricted = member
        restricted.canAddExpenses = false
        #expect(decide(.addExpense, restricted) == .forbidden)
        #expect(decide(.addExpense, viewer) == .forbidden)
    }

    @Test("editing: own with the flag, anyone's with can_edit_all; the owner always")
    func editing() {
        #expect(decide(.editExpense(isOwn: false), owner) == .allowed)
        #expect(decide(.editExpense(isOwn: true), admin) == .allowed)
        #expect(decide(.editExpense(isOwn: false), admin) == .forbidden)
        var editor = admin
        editor.canEditAllExpenses = true
        #expect(decide(.editExpense(isOwn: false), editor) == .allowed)
        #expect(decide(.editExpense(isOwn: true), member) == .allowed)
        #expect(decide(.editExpense(isOwn: false), member) == .forbidden)
        var noOwn = member
        noOwn.canEditOwnExpenses = false
        #expect(decide(.editExpense(isOwn: true), noOwn) == .forbidden)
        var memberEditor = member
        memberEditor.canEditAllExpenses = true
        #expect(decide(.editExpense(isOwn: false), memberEditor) == .allowed)
        #expect(decide(.editExpense(isOwn: true), viewer) == .forbidden)
    }

    @Test("marking paid: owner; admin with the flag; member only for their own share or as payer")
    func markingPaid() {
        #expect(decide(.markSharePaid(isDebtorOrPayer: false), owner) == .allowed)
        #expect(decide(.markSharePaid(isDebtorOrPayer: false), admin) == .allowed)
        var noFlagAdmin = admin
        noFlagAdmin.canMarkPaid = false
        #expect(decide(.markSharePaid(isDebtorOrPayer: true), noFlagAdmin) == .forbidden)
        #expect(decide(.markSharePaid(isDebtorOrPayer: true), member) == .allowed)
        #expect(decide(.markSharePaid(isDebtorOrPayer: false), member) == .forbidden)
        var noFlagMember = member
        noFlagMember.canMarkPaid = false
        #expect(decide(.markSharePaid(isDebtorOrPayer: true), noFlagMember) == .forbidden)
        #expect(decide(.markSharePaid(isDebtorOrPayer: true), viewer) == .forbidden)
    }

    @Test("managing members: owner and admin; an admin only members and viewers; nobody their own member")
    func managing() {
        #expect(decide(.manageMembers(.newMember), owner) == .allowed)
        #expect(decide(.manageMembers(.newMember), admin) == .allowed)
        #expect(decide(.manageMembers(.newMember), member) == .forbidden)
        #expect(decide(.manageMembers(.newMember), viewer) == .forbidden)
        for role in [Role.admin, .member, .viewer] {
            #expect(decide(.manageMembers(.other(role)), owner) == .allowed)
        }
        #expect(decide(.manageMembers(.other(.member)), admin) == .allowed)
        #expect(decide(.manageMembers(.other(.viewer)), admin) == .allowed)
        #expect(decide(.manageMembers(.other(.admin)), admin) == .forbidden)
        #expect(decide(.manageMembers(.other(.owner)), admin) == .forbidden)
        #expect(decide(.manageMembers(.other(.viewer)), member) == .forbidden)
        // Nobody lifts a restriction the owner set on them (issue 14: an admin re-enabled their
        // own canMarkPaid).
        for membership in [owner, admin, member, viewer] {
            #expect(decide(.manageMembers(.me), membership) == .forbidden)
        }
        // Anyone but the owner leaves (removes their own member); the owner hands the group over first.
        #expect([owner, admin, member, viewer].map { decide(.leave, $0) } == [.forbidden, .allowed, .allowed, .allowed])
        var removed = member
        removed.isActive = false
        #expect(decide(.leave, removed) == .notFound)
        #expect(decide(.archiveOrTransferOwnership, owner) == .allowed)
        #expect(decide(.archiveOrTransferOwnership, admin) == .forbidden)
        #expect(decide(.updateGroup, admin) == .allowed)
        #expect(decide(.updateGroup, member) == .forbidden)
    }

    @Test("roles: the owner changes any but its own; an admin moves members and viewers between the two")
    func roles() {
        #expect(decide(.changeRole(.other(.member), newRole: .admin), owner) == .allowed)
        #expect(decide(.changeRole(.other(.admin), newRole: .member), owner) == .allowed)
        #expect(decide(.changeRole(.other(.member), newRole: .viewer), admin) == .allowed)
        #expect(decide(.changeRole(.other(.viewer), newRole: .member), admin) == .allowed)
        // Only the owner makes or unmakes admins.
        #expect(decide(.changeRole(.other(.member), newRole: .admin), admin) == .forbidden)
        #expect(decide(.changeRole(.other(.admin), newRole: .member), admin) == .forbidden)
        #expect(decide(.changeRole(.other(.member), newRole: .owner), admin) == .forbidden)
        #expect(decide(.changeRole(.other(.member), newRole: .owner), owner) == .forbidden)
        #expect(decide(.changeRole(.other(.owner), newRole: .member), admin) == .forbidden)
        #expect(decide(.changeRole(.other(.owner), newRole: .member), owner) == .forbidden)
        for membership in [owner, admin, member, viewer] {
            #expect(decide(.changeRole(.me, newRole: .viewer), membership) == .forbidden)
        }
        #expect(decide(.changeRole(.other(.member), newRole: .admin), member) == .forbidden)
        #expect(decide(.changeRole(.other(.member), newRole: .admin), nil) == .notFound)
    }

    @Test("IP and device in payment history: owner and admin only")
    func auditDetails() {
        #expect(decide(.seeAuditDetails, owner) == .allowed)
        #expect(decide(.seeAuditDetails, admin) == .allowed)
        #expect(decide(.seeAuditDetails, member) == .forbidden)
        #expect(decide(.seeAuditDetails, viewer) == .forbidden)
    }

    @Test("settlements: owner and admin for anyone, a member only for their own, a viewer never")
    func settlements() {
        #expect(decide(.recordSettlement(isParty: false), owner) == .allowed)
        #expect(decide(.recordSettlement(isParty: false), admin) == .allowed)
        #expect(decide(.recordSettlement(isParty: true), member) == .allowed)
        #expect(decide(.recordSettlement(isParty: false), member) == .forbidden)
        #expect(decide(.recordSettlement(isParty: true), viewer) == .forbidden)
    }
}
