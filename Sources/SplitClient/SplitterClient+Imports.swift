import Foundation
internal import OpenAPIRuntime
internal import SplitAPI

/// Where an imported file goes.
public enum ImportDestination: Sendable, Equatable {
    /// A new group of this name (nil: the name a JSON file gives), and IANA time zone when
    /// known, owned by the caller; its home currency when chosen (nil: the file's own, else the
    /// one most of it is in; a dry run's `homeCurrency` says which).
    case newGroup(name: String?, timeZone: String?, homeCurrency: String? = nil)
    /// A group the caller owns or administers.
    case group(id: String)
}

/// What an import did, or would do on a dry run.
public struct ImportSummary: Sendable, Equatable, Codable {
    public struct Member: Sendable, Equatable, Codable {
        /// The name as the file has it.
        public let name: String
        /// "existing", "me" or "new".
        public let kind: String
        public let memberId: String
        public let memberName: String
    }
    public struct Balance: Sendable, Equatable, Codable {
        public let name: String
        public let currency: String
        public let net: String
    }
    public struct Skipped: Sendable, Equatable, Codable {
        public let line: Int
        public let reason: String
    }

    public let groupId: String
    public let groupName: String
    /// The group's home currency (for a new group: the one it has, or would have).
    public let homeCurrency: String
    public let dryRun: Bool
    public let expenses: Int
    public let settlements: Int
    public let members: [Member]
    public let newCategories: [String]
    /// What the file moves for each of its names, per currency.
    public let balances: [Balance]
    /// Currencies whose total-balance line matched the imported balances.
    public let footersChecked: [String]
    public let skipped: [Skipped]
    /// Lines read in a way of their own, in words (a row whose missing part went to "Not in
    /// the file", a zero-cost row read as transfers).
    public let notes: [String]
}

/// The apps whose exports the server reads.
public enum ImportFormat: String, Sendable, CaseIterable {
    /// Splitwise's "Export as spreadsheet" CSV.
    case splitwise
    /// IHateMoney's bills.json.
    case ihatemoney
    /// Spliit's JSON export.
    case spliit
    /// Cospend's CSV export.
    case cospend
    /// Our own group export (`exportGroup(layout: .json)`), which loses nothing.
    case json

    var isCSV: Bool { self == .splitwise || self == .cospend }
}

/// Moving in from other apps (issue 18): the file's bytes as they were exported.
extension SplitterClient {
    /// Imports a Splitwise export. `map`: a name of the file → a member's name or id, "me" or "new".
    public func importSplitwise(
        _ file: Data, into destination: ImportDestination, dryRun: Bool = false, map: [String: String] = [:],
        force: Bool = false
    ) async throws -> ImportSummary {
        try await importFile(file, format: .splitwise, into: destination, dryRun: dryRun, map: map, force: force)
    }

    /// Imports an export of `format`. `map`: a name of the file → a member's name or id, "me" or
    /// "new". `progress` hears how many of the file's bytes have gone to the connection so far.
    public func importFile(
        _ file: Data, format: ImportFormat, into destination: ImportDestination, dryRun: Bool = false,
        map: [String: String] = [:], force: Bool = false,
        progress: (@Sendable (_ sent: Int, _ total: Int) -> Void)? = nil
    ) async throws -> ImportSummary {
        let body = { HTTPBody(ProgressChunks(data: file, progress: progress), length: .known(Int64(file.count)), iterationBehavior: .multiple) }
        let pairs = map.isEmpty ? nil : map.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let result: Components.Schemas.ImportResult
        switch destination {
        case .newGroup(let name, let timeZone, let homeCurrency):
            let output = try await send {
                try await api.importNewGroup(
                    query: .init(
                        format: format.rawValue, name: name, timeZone: timeZone, homeCurrency: homeCurrency,
                        dryRun: dryRun, map: pairs),
                    body: format.isCSV ? .csv(body()) : .binary(body()))
            }
            switch output {
            case .created(let created): result = try created.body.json
            case .ok(let ok): result = try ok.body.json
            case .default(let status, let error): throw Self.failure(status, error)
            }
        case .group(let id):
            let output = try await send {
                try await api.importIntoGroup(
                    path: .init(groupId: id),
                    query: .init(
                        format: format.rawValue, force: force, dryRun: dryRun, map: pairs),
                    body: format.isCSV ? .csv(body()) : .binary(body()))
            }
            switch output {
            case .created(let created): result = try created.body.json
            case .ok(let ok): result = try ok.body.json
            case .default(let status, let error): throw Self.failure(status, error)
            }
        }
        return ImportSummary(
            groupId: result.group.id, groupName: result.group.name, homeCurrency: result.group.homeCurrency,
            dryRun: result.dryRun, expenses: result.expenses,
            settlements: result.settlements,
            members: result.members.map {
                .init(name: $0.name, kind: $0.kind.rawValue, memberId: $0.memberId, memberName: $0.memberName)
            },
            newCategories: result.newCategories,
            balances: result.balances.map { .init(name: $0.name, currency: $0.currency, net: $0.net) },
            footersChecked: result.footersChecked,
            skipped: result.skipped.map { .init(line: $0.line, reason: $0.reason) }, notes: result.notes ?? [])
    }
}

/// The files a group is exported as.
public enum ExportLayout: String, Sendable, CaseIterable {
    /// Splitwise's own layout, which `importSplitwise` reads back to the same balances.
    case splitwiseCSV = "splitwise-csv"
    /// One row per member of each expense or transfer, then each member's balance.
    case csv
    /// Our own document, which loses nothing; `importFile(format: .json)` reads it back.
    case json
}

extension SplitterClient {
    /// The group as a file (any member may export), and the name the server suggests for it.
    public func exportGroup(groupID: String, layout: ExportLayout) async throws -> (filename: String?, data: Data) {
        try await call({
            try await api.exportGroup(
                path: .init(groupId: groupID),
                query: .init(format: .init(rawValue: layout.rawValue) ?? .csv))
        }) { output in
            let ok = try output.ok
            let filename = Self.filename(ok.headers.contentDisposition)
            switch ok.body {
            case .csv(let body): return (filename, try await Data(collecting: body, upTo: 200 << 20))
            case .json(let document):
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                return (filename, try encoder.encode(document))
            }
        }
    }
}

extension SplitterClient {
    /// Everything the caller can see, as one zip: each group's spreadsheets and the profile.
    public func exportAccount() async throws -> (filename: String?, data: Data) {
        try await call({ try await api.exportAccount() }) { output in
            let ok = try output.ok
            let filename = Self.filename(ok.headers.contentDisposition)
            return (filename, try await Data(collecting: try ok.body.applicationZip, upTo: 1 << 30))
        }
    }
}

extension SplitterClient {
    /// The file name a `Content-Disposition: attachment; filename="…"` header suggests: its
    /// `filename*=UTF-8''…` when it has one (the name with its own letters; `filename` is then an
    /// ASCII stand-in), percent-encoded or already decoded.
    static func filename(_ disposition: String?) -> String? {
        guard let disposition else { return nil }
        if let start = disposition.range(of: "filename*=UTF-8''", options: .caseInsensitive) {
            let value = disposition[start.upperBound...].prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
            if !value.isEmpty { return value.removingPercentEncoding ?? value }
        }
        guard let start = disposition.range(of: "filename=\"") else { return nil }
        return disposition[start.upperBound...].split(separator: "\"").first.map(String.init)
    }
}

/// A file as chunks of 64 KB, saying how much has been taken (by the connection) as it goes.
struct ProgressChunks: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let data: Data
    let progress: (@Sendable (Int, Int) -> Void)?
    static let chunk = 64 * 1024

    struct AsyncIterator: AsyncIteratorProtocol {
        let owner: ProgressChunks
        var offset = 0

        mutating func next() async -> ArraySlice<UInt8>? {
            guard offset < owner.data.count else { return nil }
            let end = Swift.min(offset + ProgressChunks.chunk, owner.data.count)
            let start = owner.data.startIndex
            let slice = ArraySlice(owner.data[(start + offset)..<(start + end)])
            offset = end
            owner.progress?(offset, owner.data.count)
            return slice
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(owner: self) }
}
