import Foundation
import SplitCore
import SplitStore

/// A category as entered; nil fields of an edit leave the stored value.
public struct EnteredCategory: Sendable, Equatable {
    public var id: String?
    public var name: String?
    public var icon: String?
    public var color: String?

    public init(id: String? = nil, name: String? = nil, icon: String? = nil, color: String? = nil) {
        self.id = id
        self.name = name
        self.icon = icon
        self.color = color
    }
}

/// A group's expense categories: the six defaults every group gets, and its own.
public struct CategoryUseCases: Sendable, UsesStores {
    let database: Database
    let now: @Sendable () -> Int64

    public init(database: Database, now: @escaping @Sendable () -> Int64) { self.database = database; self.now = now }

    /// The group's live categories in their order (the defaults are made on first use).
    public func categories(groupID: UUID, caller: Caller) async throws -> [CategoryRecord] {
        let (group, _) = try await access.check(groupID, caller, for: .read)
        return try await categories.categories(groupID: group.id, now: now())
    }

    public func create(_ entered: EnteredCategory, groupID: UUID, caller: Caller, origin: RequestOrigin)
        async throws -> CategoryRecord
    {
        let (group, me) = try await access.check(groupID, caller, for: .updateGroup)
        _ = try await categories.categories(groupID: group.id, now: now())  // the defaults come first
        let category = CategoryRecord(
            id: try MoneyInput.clientID(entered.id), groupID: group.id, name: try Self.name(entered.name ?? ""),
            icon: try Self.icon(entered.icon), color: try Self.color(entered.color), isDefault: false, position: 0)
        do {
            guard
                let stored = try await categories.create(
                    category, actor: GroupAccess.actor(caller, me, origin: origin, for: [.updateGroup]), now: now())
            else { throw AppError.notFound("group") }
            return stored
        } catch CategoryStoreError.nameTaken {
            throw Self.nameTaken
        } catch  where Database.isUniqueViolation(error) {
            throw AppError.conflict(code: "conflict", field: "id", message: "A category with that id exists already.")
        }
    }

    /// Renames or restyles one of the group's own categories, if still at version `basedOn`.
    public func update(
        _ categoryID: UUID, _ entered: EnteredCategory, basedOn version: Int64?, groupID: UUID, caller: Caller,
        origin: RequestOrigin
    ) async throws -> CategoryRecord {
        let (current, me) = try await own(categoryID, groupID: groupID, caller: caller)
        var next = current
        if let name = entered.name { next.name = try Self.name(name) }
        if let icon = entered.icon { next.icon = try Self.icon(icon) }
        if let color = entered.color { next.color = try Self.color(color) }
        guard let version else { throw AppError.versionRequired("Send the version this edit is based on.") }
        // Nothing changes: nothing is written (found by a new user: "Aki changed category Date
        // Night" for a rename to the same name, spaced otherwise).
        if version == current.version, next == current { return current }
        return try await write(next, basedOn: version, caller: caller, me: me, origin: origin)
    }

    /// Deletes one of the group's own categories; its expenses keep its name.
    public func delete(_ categoryID: UUID, groupID: UUID, caller: Caller, origin: RequestOrigin) async throws {
        let (current, me) = try await own(categoryID, groupID: groupID, caller: caller)
        var next = current
        next.isDeleted = true
        _ = try await write(next, basedOn: current.version, caller: caller, me: me, origin: origin)
    }

    /// Puts the categories in the order given (their ids), which must name each exactly once.
    public func reorder(_ idTexts: [String], groupID: UUID, caller: Caller, origin: RequestOrigin) async throws
        -> [CategoryRecord]
    {
        let (group, me) = try await access.check(groupID, caller, for: .updateGroup)
        let ids = try idTexts.enumerated().map { index, text in
            guard let id = UUID(uuidString: text) else {
                throw AppError.invalid(field: "categoryIds[\(index)]", message: "Not a category id.")
            }
            return id
        }
        _ = try await categories.categories(groupID: group.id, now: now())
        do {
            guard
                let list = try await categories.reorder(
                    groupID: group.id, ids: ids,
                    actor: GroupAccess.actor(caller, me, origin: origin, for: [.updateGroup]),
                    now: now())
            else { throw AppError.notFound("group") }
            return list
        } catch CategoryStoreError.orderIncomplete {
            throw AppError.invalid(field: "categoryIds", message: "List every category of the group exactly once.")
        }
    }

    /// One of the group's own live categories (the defaults are not the group's to change).
    private func own(_ id: UUID, groupID: UUID, caller: Caller) async throws -> (CategoryRecord, MemberRecord) {
        let (group, me) = try await access.check(groupID, caller, for: .updateGroup)
        guard let current = try await categories.categories(ids: [id]).first, current.groupID == group.id,
            !current.isDeleted
        else { throw AppError.notFound("category") }
        guard !current.isDefault else { throw Self.isDefault }
        return (current, me)
    }

    private func write(
        _ category: CategoryRecord, basedOn version: Int64, caller: Caller, me: MemberRecord, origin: RequestOrigin
    ) async throws -> CategoryRecord {
        do {
            switch try await categories.update(
                category, expectedVersion: version,
                actor: GroupAccess.actor(caller, me, origin: origin, for: [.updateGroup]), now: now())
            {
            case .written(let stored): return stored
            case .stale(let current): throw AppError.staleCategory(current)
            case nil: throw AppError.notFound("category")
            }
        } catch CategoryStoreError.nameTaken {
            throw Self.nameTaken
        } catch CategoryStoreError.isDefault {
            throw Self.isDefault
        }
    }

    static let nameTaken = AppError.conflict(
        code: "conflict", field: "name", message: "The group has a category with that name.")
    static let isDefault = AppError.forbiddenBecause(
        "The default categories cannot be changed (name, icon or colour) or deleted; add a category of your own instead.")

    static func name(_ raw: String) throws -> String {
        guard let name = AccountInput.normalizedName(raw, length: 1...50) else {
            throw AppError.invalid(
                field: "name", message: "A category name has 1 to 50 visible characters, without direction controls.")
        }
        return name
    }

    static func icon(_ raw: String?) throws -> String {
        let icon = raw?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "🏷️"
        guard icon.unicodeScalars.count <= 16, !AccountInput.containsControlCharacters(icon, allowingLineBreaks: false)
        else { throw AppError.invalid(field: "icon", message: "An icon is an emoji or a few characters.") }
        return icon
    }

    static func color(_ raw: String?) throws -> String {
        guard let raw else { return "#6C757D" }
        let hex = raw.dropFirst()
        guard raw.hasPrefix("#"), hex.count == 6, hex.allSatisfy(\.isHexDigit) else {
            throw AppError.invalid(field: "color", message: "A colour is written #RRGGBB.")
        }
        return raw.uppercased()
    }
}
