import ArgumentParser
import Foundation
import SplitClient

struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send the writes queued while offline, fetch what changed; resolve conflicts.",
        discussion: """
            Sends the queue in the order it was made; sending it twice creates
            nothing twice. Then reads each group's changes since the last sync
            into the offline copy, from which `balances`, `plan`, `expense list`
            and `expense show` answer while the server cannot be reached. An edit, delete, restore or payment of an expense that
            someone else changed since you saw it is not sent: it is kept as a
            conflict with your change and the server's version (`splitter status`
            shows both), and sync exits with 6 (with 7 when the server refused a
            change, kept for `splitter status`). Later changes to the same expense
            wait until it is resolved. Resolve each conflict by the id that
            `splitter status` shows (or its last characters):

              --discard <op>  drop your change; the server's version stands.
              --force <op>    apply your change on top of the server's version
                              shown in the conflict: fields you did not change
                              keep theirs. If the expense changed yet again,
                              that is a new conflict, not an overwrite.

            --discard also drops an operation the server refused.
            """)
    @OptionGroup var options: GlobalOptions
    @Option(help: "Drop this queued, refused or conflicting operation.") var discard: [String] = []
    @Option(help: "Re-apply this conflicting change on the server's version.") var force: [String] = []

    func run() async throws {
        try await SplitterCLI.run {
            let store = try options.store()
            for text in discard {
                let operation = try resolveOperation(text, store: store)
                try store.discard(id: operation.id)
                if !options.json { print("Discarded \(short(operation.id)): \(operation.summary).") }
            }
            for text in force {
                let operation = try resolveOperation(text, store: store)
                guard operation.state == .conflict, operation.serverExpense != nil else {
                    throw CLIError(message: "\(short(operation.id)) is not a conflict; nothing to force.", code: 2)
                }
                try store.force(id: operation.id)
            }
            let client = try options.client()
            let engine = SyncEngine(client: client, store: store)
            let report = try await engine.push()
            let conflicts = try store.conflicts()
            if !options.json {
                print(
                    "Sent \(report.sent), refused \(report.parked), conflicts \(conflicts.count), "
                        + "still queued \(report.remaining).")
            }
            if let reason = report.stoppedBecause {
                if options.json { try Output.json(["sent": report.sent, "remaining": report.remaining]) }
                throw reason
            }
            // Then the other way: every group's changes since the last pull, into the offline copy.
            let groups = try await client.groups()
            try store.cache(groups: groups)
            var pulled = 0
            for group in groups { pulled += try await engine.pull(groupID: group.id) }
            if options.json {
                try Output.json(
                    [
                        "sent": report.sent, "parked": report.parked, "conflicts": conflicts.count, "held": report.held,
                        "remaining": report.remaining, "pulled": pulled,
                    ])
            } else {
                print("Pulled \(counted(pulled, "change", "changes")) in \(counted(groups.count, "group", "groups")).")
                if !conflicts.isEmpty { try printConflicts(conflicts, store: store) }
            }
            // Refused changes are kept, not sent again: a script must learn of them (found by
            // review: "refused 2" and exit 0), as of conflicts; both said when both are there.
            let refused = try store.parked()
            var said: [String] = []
            if !conflicts.isEmpty {
                said.append(
                    "\(counted(conflicts.count, "change conflicts", "changes conflict")) with the server's version; "
                        + "nothing was overwritten.")
            }
            if !refused.isEmpty {
                said.append(
                    "\(counted(refused.count, "change refused by the server is", "changes refused by the server are")) "
                        + "kept, not sent: `splitter status` says why; "
                        + "correct them and enter them again, then `splitter sync --discard <op>`.")
            }
            if !said.isEmpty {
                throw CLIError(message: said.joined(separator: "\nsplitter: "), code: conflicts.isEmpty ? 7 : 6)
            }
        }
    }
}

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "What is queued, what the server refused, what conflicts, the last sync.")
    @OptionGroup var options: GlobalOptions

    /// One operation for `--json`: what it is, and for a conflict both sides.
    struct Entry: Encodable {
        var id: String
        var kind: String
        var summary: String
        var expenseId: String?
        var baseVersion: Int64?
        var error: String?
        var yourChanges: ExpenseChanges?
        var yourPayment: SharePayment?
        var server: Expense?

        init(_ operation: PendingOperation) {
            id = operation.id
            kind = operation.kind.rawValue
            summary = operation.summary
            expenseId = operation.targetID
            baseVersion = operation.baseVersion
            error = operation.error
            yourChanges = operation.intendedChanges
            yourPayment = operation.intendedPayment
            server = operation.serverExpense
        }
    }

    struct Shown: Encodable {
        var pending: [Entry]
        var refused: [Entry]
        var conflicts: [Entry]
        var lastSync: Date?
    }

    func run() async throws {
        try await SplitterCLI.run {
            let store = try options.store()
            let pending = try store.pending()
            let parked = try store.parked()
            let conflicts = try store.conflicts()
            if options.json {
                return try Output.json(
                    Shown(
                        pending: pending.map(Entry.init), refused: parked.map(Entry.init),
                        conflicts: conflicts.map(Entry.init), lastSync: try store.lastSync))
            }
            // An operation on an expense whose earlier change is refused or in conflict waits for it.
            let blockers = Dictionary(
                (parked + conflicts).compactMap { operation in operation.targetID.map { ($0, operation.id) } }
            ) { first, _ in first }
            print("Queued: \(pending.count)")
            for operation in pending {
                let waits = operation.targetID.flatMap { blockers[$0] }.map { " (waits for \(short($0)))" } ?? ""
                print("  \(short(operation.id))  \(operation.summary)\(waits)")
            }
            if !parked.isEmpty {
                print("Refused by the server: \(parked.count)")
                for operation in parked {
                    print("  \(short(operation.id))  \(operation.summary): \(operation.error ?? "")")
                    if let next = askedAboutRemoved(operation) { print("    \(next)") }
                }
            }
            if !conflicts.isEmpty { try printConflicts(conflicts, store: store) }
            print("Last sync: \(try store.lastSync.map(timestamp) ?? "never")")
        }
    }
}

/// For a change refused with the server's question about the part of someone no longer in the
/// group, the commands that make it anyway (found by a new user: an offline delete was refused
/// with the question, and nothing said how to answer it).
func askedAboutRemoved(_ operation: PendingOperation) -> String? {
    guard let error = operation.error, error.contains("is no longer in the group"), error.contains("anyway?"),
        let target = operation.targetID
    else { return nil }
    let discard = "`splitter sync --discard \(short(operation.id))`, then "
    switch operation.kind {
    case .deleteExpense: return "To delete it anyway: " + discard + "`splitter expense delete \(short(target)) --confirm-removed-shares`."
    case .restoreExpense:
        return "To restore it anyway: " + discard + "`splitter expense restore \(short(target)) --confirm-removed-shares`."
    case .updateExpense:
        return "To change it anyway: " + discard + "`splitter expense edit \(short(target))` with your change and --confirm-removed-shares."
    default: return nil
    }
}

/// Each conflict with your change and the server's version, and how to resolve it.
func printConflicts(_ conflicts: [PendingOperation], store: OfflineStore) throws {
    func names(_ operation: PendingOperation) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try store.cachedMembers(groupID: operation.groupID).map { ($0.id, $0.name) })
    }
    /// A payment of a share its member now covers themselves: nothing to pay, so --force cannot
    /// help (found by a new user: it kept being advised, in the header too).
    func settled(_ operation: PendingOperation, names: [String: String]) -> String? {
        guard operation.kind == .setSharePayment, let payment = operation.intendedPayment, payment.isPaid,
            let server = operation.serverExpense, let share = server.splits.first(where: { $0.id == payment.shareID })
        else { return nil }
        // One's own share said as `pay` says it ("You paid at least your own share …").
        let mine = try? store.cachedGroups().first { $0.id == operation.groupID }?.myMemberId
        return nothingToSettle(share, of: server, name: share.memberId == mine ? nil : names[share.memberId] ?? "Its member")
    }
    let forceable = try conflicts.contains { settled($0, names: try names($0)) == nil }
    print(
        "Conflicts: \(conflicts.count) (resolve with "
            + (forceable ? "`splitter sync --force <op>` or `splitter sync --discard <op>`)" : "`splitter sync --discard <op>`)"))
    for operation in conflicts {
        let names = try names(operation)
        print("  \(short(operation.id))  \(operation.summary), based on version \(operation.baseVersion ?? 0)")
        print("    \(operation.error ?? "")")
        switch operation.kind {
        case .updateExpense:
            print("    yours:  \(operation.intendedChanges.map { describe($0, names: names) } ?? "?")")
        case .setSharePayment:
            let payment = operation.intendedPayment
            print("    yours:  mark \(payment?.isPaid == false ? "unpaid" : "paid")")
            // What --force would record now (found by a new user: a cash payment of 15.00 was
            // forced into a transfer of 16.00, the share's new amount, and nothing said so).
            if let server = operation.serverExpense, let share = server.splits.first(where: { $0.id == payment?.shareID }) {
                let whose = names[share.memberId].map { "\($0)'s share" } ?? "the share"
                print(
                    "    now:    \(whose) is \(share.amount) \(server.currency)"
                        + (payment?.isPaid == false
                            ? "" : settled(operation, names: names).map { "; \($0) Discard it." } ?? "; --force marks that much paid"))
            }
        default:
            print("    yours:  \(operation.kind == .deleteExpense ? "delete" : "restore") it")
        }
        print("    server: \(operation.serverExpense.map { describe($0, names: names) } ?? "unknown")")
        // The shares too: a split changed under the same total looked like no change at all.
        if let server = operation.serverExpense, !server.splits.isEmpty {
            // Paid ones marked: a conflict a paid mark made showed two identical versions (found
            // by a new user).
            let shares = server.splits.map { "\(names[$0.memberId] ?? "?") \($0.amount)" + ($0.isPaid ? " (paid)" : "") }.sorted()
            print("            shares: " + shares.joined(separator: ", "))
        }
    }
}

/// A queued operation by its id or the last characters of it.
func resolveOperation(_ text: String, store: OfflineStore) throws -> PendingOperation {
    guard let operation = try store.operation(matching: text) else {
        throw CLIError(message: "No single queued operation \"\(text)\"; see `splitter status`.", code: 5)
    }
    return operation
}
