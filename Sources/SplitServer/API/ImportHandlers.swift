import Foundation
import HTTPTypes
import OpenAPIRuntime
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// Imports from other apps (issue 18): the file as the body, one `ImportUseCases` call.
extension APIHandler {
    func importNewGroup(_ input: Operations.ImportNewGroup.Input) async throws -> Operations.ImportNewGroup.Output {
        let caller = try await authenticate()
        let (result, written) = try await importFile(
            try Self.file(input.body), format: input.query.format ?? "",
            into: .newGroup(name: input.query.name, timeZone: input.query.timeZone, homeCurrency: input.query.homeCurrency), map: input.query.map,
            dryRun: input.query.dryRun, force: nil, caller: caller)
        return written ? .created(.init(body: .json(result))) : .ok(.init(body: .json(result)))
    }

    func importIntoGroup(_ input: Operations.ImportIntoGroup.Input) async throws -> Operations.ImportIntoGroup.Output {
        let caller = try await authenticate()
        let groupID = try Self.id(input.path.groupId, "group")
        let (result, written) = try await importFile(
            try Self.file(input.body), format: input.query.format ?? "", into: .group(groupID), map: input.query.map, dryRun: input.query.dryRun, force: input.query.force,
            caller: caller)
        return written ? .created(.init(body: .json(result))) : .ok(.init(body: .json(result)))
    }

    /// Both import routes: the file, its mapping, the use case, and whether anything was written.
    private func importFile(
        _ body: HTTPBody, format: String, into target: ImportTarget, map: [String]?, dryRun: Bool?, force: Bool?,
        caller: Caller
    ) async throws -> (Components.Schemas.ImportResult, written: Bool) {
        guard let format = ImportedFile.Format(rawValue: format) else {
            // Checked here, not by the spec's enum: the generated server refused a missing or unknown
            // format as a body that does not match (found by review).
            throw AppError.invalid(
                field: "format", message: "Say which app the file is from: format=splitwise, ihatemoney, spliit, cospend or json.")
        }
        let report = try await importUseCases.importFile(
            try await Self.file(body), format: format, into: target, mapping: try Self.mapping(map), dryRun: dryRun ?? false,
            force: force ?? false, caller: caller, origin: try request.origin)
        return (Components.Schemas.ImportResult(report), !report.dryRun)
    }

    /// The file as sent: CSV, or bytes (a JSON file reaches here as bytes, `RequestBodyMiddleware`).
    static func file(_ body: some ImportBody) throws -> HTTPBody {
        // Another media type with a body is refused before (415, `RequestBodyMiddleware`): what is
        // left is an empty body (found by a new user: an empty file was told to use text/csv).
        guard let file = body.file else {
            throw AppError.invalid(
                field: "file", message: "The file is empty: send the exported file (Content-Type: text/csv or application/json).")
        }
        return file
    }

    /// The body's bytes, up to the import limit.
    static func file(_ body: HTTPBody) async throws -> Data {
        // The body was read whole by `RequestBodyMiddleware`, so its length is known; a server
        // configured for bodies larger than an import still takes no file over 20 MB.
        if case .known(let length) = body.length, length > ImportUseCases.maximumBytes {
            throw APIError(.contentTooLarge, code: "too_large", message: "The file is larger than 20 MB.")
        }
        return try await Data(collecting: body, upTo: ImportUseCases.maximumBytes)
    }

    /// `Name=target` pairs; the last `=` separates them, so a name may hold one.
    static func mapping(_ pairs: [String]?) throws -> [String: String] {
        var mapping: [String: String] = [:]
        for pair in pairs ?? [] {
            guard let split = pair.lastIndex(of: "=") else {
                throw AppError.invalid(field: "map", message: "Write each mapping as Name=target (a member, me or new).")
            }
            let name = pair[..<split].trimmingCharacters(in: .whitespaces)
            let target = pair[pair.index(after: split)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, !target.isEmpty else {
                throw AppError.invalid(field: "map", message: "Write each mapping as Name=target (a member, me or new).")
            }
            mapping[name] = target
        }
        return mapping
    }
}

extension Components.Schemas.ImportResult {
    init(_ report: ImportReport) {
        self.init(
            group: .init(report.group, me: report.me), dryRun: report.dryRun, expenses: report.expenses,
            settlements: report.settlements,
            members: report.members.map {
                .init(
                    name: $0.name, kind: .init(rawValue: $0.kind.rawValue) ?? .new,
                    memberId: ($0.memberID ?? UUID.random()).text, memberName: $0.memberName)
            },
            newCategories: report.newCategories,
            balances: report.balances.map { balance in
                .init(
                    name: balance.name, currency: balance.currency,
                    net: (try? Currency(code: balance.currency)).map {
                        Money(minorUnits: balance.net, currency: $0).decimalString
                    } ?? String(balance.net))
            },
            footersChecked: report.footersChecked,
            skipped: report.skipped.map { .init(line: $0.line, reason: $0.reason) },
            notes: report.notes.isEmpty ? nil : report.notes)
    }
}

/// Exports (issue 18): the group as a spreadsheet file.
extension APIHandler {
    func exportGroup(_ input: Operations.ExportGroup.Input) async throws -> Operations.ExportGroup.Output {
        let caller = try await authenticate()
        let format: ExportFormat =
            switch input.query.format {
            case .splitwiseCsv: .splitwiseCSV
            case .csv: .csv
            case .json: .json
            }
        let file = try await exportUseCases.export(
            try Self.id(input.path.groupId, "group"), format: format, caller: caller)
        // The generated answer takes a JSON document as a value: the same document, re-encoded
        // with sorted keys (integers stay integers).
        return .ok(
            .init(
                headers: .init(contentDisposition: file.disposition),
                body: format == .json
                    ? .json(try JSONDecoder().decode(OpenAPIObjectContainer.self, from: file.data))
                    : .csv(HTTPBody(file.data))))
    }
}

extension APIHandler {
    func exportAccount(_ input: Operations.ExportAccount.Input) async throws -> Operations.ExportAccount.Output {
        let caller = try await authenticate()
        let file = try await exportUseCases.exportAccount(caller: caller)
        return .ok(
            .init(
                headers: .init(contentDisposition: file.disposition),
                body: .applicationZip(HTTPBody(file.data))))
    }
}

/// The two import routes' generated bodies: the file's bytes, whichever way it was sent.
protocol ImportBody {
    var file: HTTPBody? { get }
}

extension Operations.ImportNewGroup.Input.Body: ImportBody {
    var file: HTTPBody? {
        switch self {
        case .csv(let body), .binary(let body): body
        case .json: nil
        }
    }
}

extension Operations.ImportIntoGroup.Input.Body: ImportBody {
    var file: HTTPBody? {
        switch self {
        case .csv(let body), .binary(let body): body
        case .json: nil
        }
    }
}
