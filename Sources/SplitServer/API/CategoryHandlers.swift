import Foundation
import HTTPTypes
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

extension APIHandler {
    func listCategories(_ input: Operations.ListCategories.Input) async throws -> Operations.ListCategories.Output {
        let caller = try await authenticate()
        let (group, _) = try await access(input.path.groupId, as: caller, for: .read)
        let list = try await categories.categories(groupID: group.id, now: now())
        return .ok(.init(body: .json(.init(categories: list.map(Components.Schemas.Category.init)))))
    }

    func createCategory(_ input: Operations.CreateCategory.Input) async throws -> Operations.CreateCategory.Output {
        let caller = try await authenticate()
        let (group, me) = try await access(input.path.groupId, as: caller, for: .updateGroup)
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        _ = try await categories.categories(groupID: group.id, now: now())  // the defaults come first
        let category = CategoryRecord(
            id: try Self.clientID(body.id), groupID: group.id, name: try Self.categoryName(body.name),
            icon: try Self.icon(body.icon), color: try Self.color(body.color), isDefault: false, position: 0)
        do {
            guard
                let stored = try await categories.create(
                    category, actor: try actor(caller, me, for: .updateGroup), now: now())
            else {
                throw APIError.notFound("group")
            }
            return .created(.init(body: .json(.init(category: .init(stored)))))
        } catch CategoryStoreError.nameTaken {
            throw APIError.conflict(field: "name", message: "The group has a category with that name.")
        } catch  where Database.isUniqueViolation(error) {
            throw APIError.conflict(field: "id", message: "A category with that id exists already.")
        }
    }

    func updateCategory(_ input: Operations.UpdateCategory.Input) async throws -> Operations.UpdateCategory.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let (current, caller, me) = try await categoryAccess(input.path.groupId, input.path.categoryId)
        var next = current
        if let name = body.name { next.name = try Self.categoryName(name) }
        if let icon = body.icon { next.icon = try Self.icon(icon) }
        if let color = body.color { next.color = try Self.color(color) }
        guard let version = body.version else {
            throw APIError(
                .preconditionRequired, code: "precondition_required", message: "Send the version this edit is based on."
            )
        }
        let stored = try await writeCategory(next, basedOn: version, caller: caller, me: me)
        return .ok(.init(body: .json(.init(category: .init(stored)))))
    }

    func deleteCategory(_ input: Operations.DeleteCategory.Input) async throws -> Operations.DeleteCategory.Output {
        let (current, caller, me) = try await categoryAccess(input.path.groupId, input.path.categoryId)
        var next = current
        next.isDeleted = true
        _ = try await writeCategory(next, basedOn: current.version, caller: caller, me: me)
        return .noContent(.init())
    }

    func reorderCategories(_ input: Operations.ReorderCategories.Input) async throws
        -> Operations.ReorderCategories.Output
    {
        let caller = try await authenticate()
        let (group, me) = try await access(input.path.groupId, as: caller, for: .updateGroup)
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let ids = try body.categoryIds.enumerated().map { index, text in
            guard let id = UUID(uuidString: text) else {
                throw APIError.invalid(field: "categoryIds[\(index)]", "Not a category id.")
            }
            return id
        }
        _ = try await categories.categories(groupID: group.id, now: now())
        do {
            guard
                let list = try await categories.reorder(
                    groupID: group.id, ids: ids, actor: try actor(caller, me, for: .updateGroup), now: now())
            else { throw APIError.notFound("group") }
            return .ok(.init(body: .json(.init(categories: list.map(Components.Schemas.Category.init)))))
        } catch CategoryStoreError.orderIncomplete {
            throw APIError.invalid(field: "categoryIds", "List every category of the group exactly once.")
        }
    }

    private func categoryAccess(
        _ groupText: String, _ categoryText: String
    ) async throws -> (CategoryRecord, Caller, MemberRecord) {
        let caller = try await authenticate()
        let (group, me) = try await access(groupText, as: caller, for: .updateGroup)
        guard let id = UUID(uuidString: categoryText),
            let current = try await categories.categories(ids: [id]).first, current.groupID == group.id,
            !current.isDeleted
        else { throw APIError.notFound("category") }
        guard !current.isDefault else {
            throw APIError.forbidden("The default categories cannot be renamed or deleted.")
        }
        return (current, caller, me)
    }

    private func writeCategory(
        _ category: CategoryRecord, basedOn version: Int64, caller: Caller, me: MemberRecord
    ) async throws -> CategoryRecord {
        do {
            switch try await categories.update(
                category, expectedVersion: version, actor: try actor(caller, me, for: .updateGroup), now: now())
            {
            case .written(let stored): return stored
            case .stale(let current): throw try APIError.stale(Components.Schemas.Category(current))
            case nil: throw APIError.notFound("category")
            }
        } catch CategoryStoreError.nameTaken {
            throw APIError.conflict(field: "name", message: "The group has a category with that name.")
        } catch CategoryStoreError.isDefault {
            throw APIError.forbidden("The default categories cannot be renamed or deleted.")
        }
    }

    static func categoryName(_ raw: String) throws -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...50).contains(name.unicodeScalars.count),
            !AccountInput.containsControlCharacters(name, allowingLineBreaks: false)
        else { throw APIError.invalid(field: "name", "A category name has 1 to 50 characters.") }
        return name
    }

    static func icon(_ raw: String?) throws -> String {
        let icon = raw?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "🏷️"
        guard icon.unicodeScalars.count <= 16, !AccountInput.containsControlCharacters(icon, allowingLineBreaks: false)
        else {
            throw APIError.invalid(field: "icon", "An icon is an emoji or a few characters.")
        }
        return icon
    }

    static func color(_ raw: String?) throws -> String {
        guard let raw else { return "#6C757D" }
        let hex = raw.dropFirst()
        guard raw.hasPrefix("#"), hex.count == 6, hex.allSatisfy(\.isHexDigit) else {
            throw APIError.invalid(field: "color", "A colour is written #RRGGBB.")
        }
        return raw.uppercased()
    }
}
