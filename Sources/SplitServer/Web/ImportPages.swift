import Crypto
import Foundation
import Hummingbird
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// Moving in from another app on the web (issue 18): choose the export (the page's script reads the
/// file into the text box; without script, paste its text), check it (a dry run: who each name
/// is, what it moves, the footers checked, the lines skipped), then import. Into a new group from
/// My groups, or into a group from its Settings (owner and admins).
extension WebApp {
    struct ImportBody: Sendable {
        struct Choice: Sendable {
            let value: String
            let label: String
            let selected: Bool
        }
        struct Name: Sendable {
            let index: Int
            let name: String
            let choices: [Choice]
        }
        struct Balance: Sendable {
            let name: String
            let amount: String
            let owed: Bool
        }
        /// Into a group: a member's balance in one currency now and after the import.
        struct Change: Sendable {
            let name: String
            let before: String
            let after: String
        }
        struct Skipped: Sendable {
            let line: Int
            let reason: String
        }
        let action: String
        /// The group imported into; nil for a new group.
        let groupID: String?
        /// A new group's home currency: every currency, the one chosen or (once checked) the one
        /// the file gives selected, else "From the file" (found by review: it was the file's
        /// without a word; and a file naming no currency could not be imported into a new group).
        let homeCurrencies: [CurrencyOption]
        let hasHomeChoice: Bool
        let homeHint: String
        let groupName: String
        /// The apps a file may come from, the chosen one selected.
        let formats: [Choice]
        let newName: String
        let csv: String
        let checked: Bool
        /// What was checked (`fingerprint`), posted with Import: what is imported is what the
        /// page showed (found by a new user: another file chosen after the check went in, with the
        /// check's "who is who" given to other names by position).
        let checkedAs: String
        let expenses: Int
        let settlements: Int
        /// "expense" or "expenses" after the count, and the same for transfers.
        let expenseWord: String
        let settlementWord: String
        let names: [Name]
        let balances: [Balance]
        let changes: [Change]
        let hasChanges: Bool
        let footers: String
        /// Nil when there are none (an empty text still showed "New categories:").
        let newCategories: String?
        let skipped: [Skipped]
        /// Lines read in a way of their own (`ImportReport.notes`).
        let notes: [String]
        let errors: [String: String]
        /// Some names were matched to a member by a similar name: say so.
        let suggested: Bool
    }

    var importUseCases: ImportUseCases { api.importUseCases }

    func importPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await renderImport(groupID: context.parameters.get("groupId"), form: nil, report: nil, errors: [:])
    }

    /// `intent=check`: a dry run shown on the page; `intent=import`: the import, then the group.
    func importFile(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = context.parameters.get("groupId")
        // Signed in before the file is read at all.
        let caller = try caller()
        var form = try WebRequest.get().form
        let text = form["file"] ?? ""
        // Import of something other than what was checked: checked again instead, the choices
        // made for the other file's names left out.
        var changed = false
        if form["intent"] == "import", form["_checked"] != Self.fingerprint(form) {
            changed = true
            form.fields = form.fields.filter { !$0.name.hasPrefix("map_") && $0.name != "intent" && $0.name != "force" }
        }
        do {
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw AppError.invalid(field: "file", message: "Choose the exported .csv file, or paste its text.")
            }
            // Text the browser read as UTF-8 from a file that is not (a CSV saved as Windows-1252)
            // comes with U+FFFD for each letter it could not read: refused as the API refuses the
            // bytes (found by a new user: the web imported "Navette a�roport").
            guard form["format"] == "json" || !text.unicodeScalars.contains("\u{FFFD}") else {
                throw AppError.invalid(
                    field: "file", message: "The file is not UTF-8 text: some of its letters could not be read. Save it as CSV, UTF-8.")
            }
            let data = Data(text.utf8)
            let format = try Self.importFormat(form["format"])
            // The names as the file has them, in order: map_<n> says who the n-th one is. Read as
            // the import reads it, with the group's home currency (a file that names none, as
            // IHateMoney's "no currency" or a Spliit group without a code, needs it to be read).
            var home: Currency?
            if let groupID { home = try? Currency(code: try await scope(groupID).group.homeCurrency) }
            let names =
                data.count <= ImportUseCases.maximumBytes
                ? (try? ImportUseCases.read(data, format: format, homeCurrency: home))?.names ?? [] : []
            var mapping: [String: String] = [:]
            for (index, name) in names.enumerated() {
                if let choice = form["map_\(index)"], !choice.isEmpty, choice != "auto" { mapping[name] = choice }
            }
            let target: ImportTarget =
                if let groupID { .group(try APIHandler.id(groupID, "group")) } else {
                    .newGroup(
                        name: form["name"].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 },
                        // Our own export carries its group's zone, kept as the CLI keeps it (found
                        // by a new user: the web's import put the browser's, or GMT, instead).
                        timeZone: format == .json ? nil : form["timeZone"].flatMap { $0.isEmpty ? nil : $0 },
                        homeCurrency: form["homeCurrency"].flatMap { $0.isEmpty ? nil : $0 })
                }
            let confirmed = form["intent"] == "import"
            let report: ImportReport
            do {
                report = try await importUseCases.importFile(
                    data, format: format, into: target, mapping: mapping, dryRun: !confirmed, force: form["force"] == "1",
                    caller: caller, origin: try origin())
            } catch AppError.conflict(code: "already_imported", _, _) where !confirmed {
                // A check of a file imported here before shows what it would bring all the same,
                // with the box that imports it again (found by review: the box was on the report,
                // which the refusal left out).
                let report = try await importUseCases.importFile(
                    data, format: format, into: target, mapping: mapping, dryRun: true, force: true, caller: caller,
                    origin: try origin())
                return try await renderImport(
                    groupID: groupID, form: form, report: report,
                    errors: [
                        "form": ImportUseCases.importedBefore(report.importedBefore)
                            + ". To add it a second time, tick “Import it even if…” below, then Import."
                    ])
            }
            if confirmed { return Self.redirect("/groups/\(report.group.id.text)", done: "imported") }
            return try await renderImport(
                groupID: groupID, form: form, report: report,
                errors: changed
                    ? ["form": "The file is not the one checked: here is what this one brings. Check who is who, then import."]
                    : [:])
        } catch {
            let errors = try Self.formErrors(error, shown: ["file", "name", "map", "format", "homeCurrency"])
            return try await renderImport(groupID: groupID, form: form, report: nil, errors: errors)
        }
    }

    /// What a check was of: the format, a new group's home currency (a file naming none is read
    /// in it) and the file's text, alike whatever its line ends (the browser may send them
    /// otherwise the second time).
    /// `homeCurrency`: the one the page posts with Import (after a check that read "From the
    /// file", the file's, selected; found by review: every such import was taken for another).
    static func fingerprint(_ form: WebForm, homeCurrency: String? = nil) -> String {
        let format = (try? importFormat(form["format"]))?.rawValue ?? ""
        let text = ImportUseCases.alikeText(Data((form["file"] ?? "").utf8))
        let home = homeCurrency ?? form["homeCurrency"] ?? ""
        let digest = SHA256.hash(data: Data((format + "\n" + home + "\n").utf8) + Data(text))
        return Hex.string(digest).prefix(32).description
    }

    /// A new group's home currency choices: "From the file" first until a check says which.
    static func homeChoices(chosen: String?, report: ImportReport?) -> [CurrencyOption] {
        let selected = chosen.flatMap { $0.isEmpty ? nil : $0 } ?? report?.group.homeCurrency ?? ""
        let fromFile = CurrencyOption(code: "", label: "From the file", selected: selected.isEmpty)
        return (report == nil ? [fromFile] : []) + currencyOptions(selected: selected)
    }

    /// The form's format; Splitwise when none is chosen (the page's first choice).
    static func importFormat(_ value: String?) throws -> ImportedFile.Format {
        guard let value, !value.isEmpty else { return .splitwise }
        guard let format = ImportedFile.Format(rawValue: value) else {
            throw AppError.invalid(field: "format", message: "Choose the app the file was exported from.")
        }
        return format
    }

    private func renderImport(
        groupID: String?, form: WebForm?, report: ImportReport?, errors: [String: String]
    ) async throws -> Response {
        var nav: GroupNav?
        var groupName = ""
        var members: [(id: String, name: String)] = []
        var myName = try caller().user.displayName
        if let groupID {
            let scope = try await scope(groupID)
            nav = scope.nav("settings", live: false)
            groupName = scope.group.name
            members = scope.members.filter(\.active).map { ($0.id, $0.name) }
            if let me = scope.members.first(where: { $0.id == scope.group.myMemberId }) { myName = me.name }
        }
        // A name with no member of its own that looks like one (a first name, a typo, accents)
        // is proposed for that member (or for "me"), once, until the user chooses.
        var taken = Set((report?.members ?? []).compactMap { $0.kind == .new ? nil : $0.memberID?.text })
        if let me = report?.me, report?.members.contains(where: { $0.kind == .me }) == true { taken.insert(me.id.text) }
        var suggested = 0
        let names: [ImportBody.Name] = (report?.members ?? []).enumerated().map { index, mapping in
            // The caller's own name is "me" by itself (an export names whoever made it).
            var chosen = form?["map_\(index)"] ?? (mapping.kind == .me ? "me" : "auto")
            if mapping.kind == .new, form?["map_\(index)"] == nil {
                var candidates: [(id: String, name: String, value: String)] = [(report?.me.id.text ?? "", myName, "me")]
                for member in members where member.id != report?.me.id.text {
                    candidates.append((member.id, member.name, member.id))
                }
                if let match = candidates.first(where: {
                    !taken.contains($0.id) && ImportUseCases.similarName(mapping.name, $0.name)
                }) {
                    chosen = match.value
                    taken.insert(match.id)
                    suggested += 1
                }
            }
            // Each person is offered once (found by review: "Aki (same name)" beside "Me (Aki)",
            // "Ben (same name)" beside "Ben"): the name's own match is not offered again. Only
            // while nothing was chosen for the name: then the report's match is the name's own
            // (once chosen, it is the choice, which stays offered and selected).
            let explicit = form?["map_\(index)"].map { !$0.isEmpty && $0 != "auto" } ?? false
            let autoIsMe = !explicit && mapping.kind != .new && mapping.memberID == report?.me.id
            var choices: [ImportBody.Choice] = [
                .init(
                    value: "auto",
                    label: mapping.kind == .new
                        ? "A new member" : autoIsMe ? "Me (\(myName))"
                        // "(same name)" only where it is (found by a new user: "Felix (same name)" of m2, mapped to Felix).
                        : "\(mapping.memberName) (\(ImportUseCases.similarName(mapping.name, mapping.memberName) ? "same name" : "as chosen"))",
                    selected: chosen == "auto" || (autoIsMe && chosen == "me")),
            ]
            if !autoIsMe { choices.append(.init(value: "me", label: "Me (\(myName))", selected: chosen == "me")) }
            // "A new member" is offered once: it is what the name comes to by itself, or a choice.
            if mapping.kind != .new || chosen != "auto" && chosen != "new" {
                choices.append(.init(value: "new", label: "A new member", selected: chosen == "new"))
            }
            // My own member is "Me (…)" above, not offered a second time by name (found by review).
            choices += members.filter {
                $0.id != report?.me.id.text && (explicit || mapping.kind == .new || $0.id != mapping.memberID?.text)
            }.map { .init(value: $0.id, label: $0.name, selected: chosen == $0.id) }
            return .init(index: index, name: mapping.name, choices: choices)
        }
        let balances: [ImportBody.Balance] = (report?.balances ?? []).filter { $0.net != 0 }.compactMap { balance in
            guard let currency = try? Currency(code: balance.currency) else { return nil }
            let money = WebFormat.money(Money(minorUnits: abs(balance.net), currency: currency).decimalString, currency.code)
            return .init(
                name: balance.name, amount: balance.net > 0 ? "is owed \(money)" : "owes \(money)", owed: balance.net > 0)
        }
        // Into a group: each member's balance before and after, where the file moves it.
        var changes: [ImportBody.Change] = []
        if let groupID, let report {
            let current = try await ledger.balances(groupID: try APIHandler.id(groupID, "group"), caller: try caller())
            func said(_ minor: Int64, _ currency: Currency) -> String {
                let money = WebFormat.money(Money(minorUnits: abs(minor), currency: currency).decimalString, currency.code)
                return minor == 0 ? "square" : minor > 0 ? "is owed \(money)" : "owes \(money)"
            }
            for balance in report.balances where balance.net != 0 {
                guard let currency = try? Currency(code: balance.currency),
                    let mapping = report.members.first(where: { $0.name == balance.name })
                else { continue }
                let before =
                    mapping.memberID.flatMap { id in
                        current.nets.first { $0.memberID == id && $0.currency == balance.currency }?.net
                    } ?? 0
                changes.append(
                    .init(
                        name: mapping.memberName, before: said(before, currency), after: said(before + balance.net, currency)))
            }
        }
        let body = ImportBody(
            action: groupID.map { "/groups/\($0)/import" } ?? "/import", groupID: groupID,
            homeCurrencies: groupID != nil ? [] : Self.homeChoices(chosen: form?["homeCurrency"], report: report),
            hasHomeChoice: groupID == nil,
            homeHint: report == nil
                ? "From the file: its own currency, else the one most of it is in (the check says which). Choose one for a file that names none."
                : "Settle up, totals and budgets count in it; Settings can change it later.",
            groupName: groupName,
            formats: ImportedFile.Format.allCases.map {
                .init(value: $0.rawValue, label: $0.title, selected: $0.rawValue == (form?["format"] ?? "splitwise"))
            },
            newName: form?["name"] ?? "", csv: form?["file"] ?? "", checked: report != nil,
            checkedAs: form.map { form in
                // The home currency the page will post: a new group's choice, the file's once
                // checked; none for a group (the page has no choice then).
                let shown = groupID != nil ? "" : Self.homeChoices(chosen: form["homeCurrency"], report: report).first(where: \.selected)?.code
                return Self.fingerprint(form, homeCurrency: shown ?? "")
            } ?? "",
            expenses: report?.expenses ?? 0, settlements: report?.settlements ?? 0,
            expenseWord: report?.expenses == 1 ? "expense" : "expenses",
            settlementWord: report?.settlements == 1 ? "transfer" : "transfers", names: names,
            balances: balances, changes: changes, hasChanges: !changes.isEmpty,
            footers: report.map {
                $0.footersChecked.isEmpty
                    ? "The file has no total-balance lines to check."
                    : "The total-balance lines (\($0.footersChecked.joined(separator: ", "))) match, to the cent."
            } ?? "",
            newCategories: report.flatMap { $0.newCategories.isEmpty ? nil : $0.newCategories.joined(separator: ", ") },
            skipped: (report?.skipped ?? []).map { .init(line: $0.line, reason: $0.reason) }, notes: report?.notes ?? [],
            errors: errors,
            suggested: suggested > 0)
        return try await render(
            "import", title: groupID == nil ? "Import from another app" : "Import · \(groupName)", body: body, nav: nav,
            errors: errors, errorOrder: ["name", "file", "map"],
            status: errors.isEmpty ? nil : .unprocessableContent)
    }
}

extension WebApp {
    /// A group's file, downloaded from Settings by any member (the API's export, with the
    /// page's session).
    func exportFile(_ request: Request, context: AppRequestContext) async throws -> Response {
        let groupID = try APIHandler.id(try context.parameters.require("groupId"), "group")
        guard let format = request.uri.queryParameters["format"].flatMap({ ExportFormat(rawValue: String($0)) }) else {
            throw AppError.invalid(field: "format", message: "Choose json, splitwise-csv or csv.")
        }
        return Self.download(try await api.exportUseCases.export(groupID, format: format, caller: try caller()))
    }

    /// A file the browser saves rather than shows.
    static func download(_ file: ExportedFile) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: file.contentType, .contentDisposition: file.disposition,
                .cacheControl: "no-store",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: file.data)))
    }
}

extension WebApp {
    /// The account's zip, from the account page.
    func exportAccountFile(_ request: Request, context: AppRequestContext) async throws -> Response {
        Self.download(try await api.exportUseCases.exportAccount(caller: try caller()))
    }
}
