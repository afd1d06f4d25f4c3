internal import SplitAPI

/// Looking after a group: its settings, archiving, its categories and its recorded transfers.
extension SplitterClient {
    /// Changes the group's name, description, home currency or time zone (owner, admin); nil
    /// leaves a part as it is. `version`: the group's version the change is based on (a stale one
    /// is a conflict with the current group).
    public func updateGroup(
        id: String, name: String? = nil, description: String? = nil, homeCurrency: String? = nil,
        timeZone: String? = nil, version: Int64? = nil
    ) async throws -> Group {
        try await call({
            try await api.updateGroup(
                path: .init(groupId: id),
                body: .json(
                    .init(
                        name: name, description: description, homeCurrency: homeCurrency, timeZone: timeZone,
                        version: version)))
        }) { Group(try $0.ok.body.json.group) }
    }

    /// Archives the group (owner): it stays readable and nothing changes in it until it is
    /// brought back.
    public func archiveGroup(id: String) async throws -> Group {
        try await call({ try await api.archiveGroup(path: .init(groupId: id)) }) { Group(try $0.ok.body.json.group) }
    }

    /// Hands the group to another member with an account (owner); the caller becomes an admin.
    public func transferOwnership(groupID: String, to memberID: String) async throws -> Group {
        try await call({
            try await api.transferOwnership(path: .init(groupId: groupID), body: .json(.init(memberId: memberID)))
        }) { Group(try $0.ok.body.json.group) }
    }

    /// Brings an archived group back (owner).
    public func unarchiveGroup(id: String) async throws -> Group {
        try await call({ try await api.unarchiveGroup(path: .init(groupId: id)) }) { Group(try $0.ok.body.json.group) }
    }

    /// A custom category, last in the order (owner, admin).
    public func createCategory(groupID: String, name: String, icon: String? = nil, color: String? = nil) async throws
        -> Category
    {
        try await call({
            try await api.createCategory(
                path: .init(groupId: groupID), body: .json(.init(name: name, icon: icon, color: color)))
        }) { Category(try $0.created.body.json.category) }
    }

    /// Renames or restyles a custom category (owner, admin).
    public func updateCategory(
        groupID: String, id: String, name: String? = nil, icon: String? = nil, color: String? = nil,
        version: Int64? = nil
    ) async throws -> Category {
        try await call({
            try await api.updateCategory(
                path: .init(groupId: groupID, categoryId: id),
                body: .json(.init(name: name, icon: icon, color: color, version: version)))
        }) { Category(try $0.ok.body.json.category) }
    }

    /// Deletes a custom category (owner, admin); its expenses keep showing its name.
    public func deleteCategory(groupID: String, id: String) async throws {
        try await call({ try await api.deleteCategory(path: .init(groupId: groupID, categoryId: id)) }) {
            _ = try $0.noContent
        }
    }

    /// The group's recorded transfers, newest first; deleted ones too when asked.
    public func settlements(groupID: String, includeDeleted: Bool = false) async throws -> [Settlement] {
        try await call({
            try await api.listSettlements(
                path: .init(groupId: groupID), query: .init(includeDeleted: includeDeleted ? true : nil))
        }) { try $0.ok.body.json.settlements.map(Settlement.init) }
    }

    /// Deletes a transfer recorded by hand (audited); one a paid mark made is undone by unmarking
    /// its share (a conflict here).
    public func deleteSettlement(id: String) async throws -> Settlement {
        try await call({ try await api.deleteSettlement(path: .init(settlementId: id)) }) {
            Settlement(try $0.ok.body.json.settlement)
        }
    }
}
