import Foundation
import HTTPTypes
import SplitAPI
import SplitApp
import SplitCore
import SplitStore

/// The category operations of the API: wire in, one `CategoryUseCases` call, wire out (STYLE §8).
extension APIHandler {
    func listCategories(_ input: Operations.ListCategories.Input) async throws -> Operations.ListCategories.Output {
        let caller = try await authenticate()
        let list = try await categoryUseCases.categories(
            groupID: try Self.id(input.path.groupId, "group"), caller: caller)
        return .ok(.init(body: .json(.init(categories: list.map(Components.Schemas.Category.init)))))
    }

    func createCategory(_ input: Operations.CreateCategory.Input) async throws -> Operations.CreateCategory.Output {
        let caller = try await authenticate()
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let stored = try await categoryUseCases.create(
            EnteredCategory(id: body.id, name: body.name, icon: body.icon, color: body.color),
            groupID: try Self.id(input.path.groupId, "group"), caller: caller, origin: try request.origin)
        return .created(.init(body: .json(.init(category: .init(stored)))))
    }

    func updateCategory(_ input: Operations.UpdateCategory.Input) async throws -> Operations.UpdateCategory.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let caller = try await authenticate()
        let stored = try await categoryUseCases.update(
            try Self.id(input.path.categoryId, "category"),
            EnteredCategory(name: body.name, icon: body.icon, color: body.color), basedOn: body.version,
            groupID: try Self.id(input.path.groupId, "group"), caller: caller, origin: try request.origin)
        return .ok(.init(body: .json(.init(category: .init(stored)))))
    }

    func deleteCategory(_ input: Operations.DeleteCategory.Input) async throws -> Operations.DeleteCategory.Output {
        let caller = try await authenticate()
        try await categoryUseCases.delete(
            try Self.id(input.path.categoryId, "category"), groupID: try Self.id(input.path.groupId, "group"),
            caller: caller, origin: try request.origin)
        return .noContent(.init())
    }

    func reorderCategories(_ input: Operations.ReorderCategories.Input) async throws
        -> Operations.ReorderCategories.Output
    {
        let caller = try await authenticate()
        let groupID = try Self.id(input.path.groupId, "group")
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let list = try await categoryUseCases.reorder(
            body.categoryIds, groupID: groupID, caller: caller, origin: try request.origin)
        return .ok(.init(body: .json(.init(categories: list.map(Components.Schemas.Category.init)))))
    }
}
