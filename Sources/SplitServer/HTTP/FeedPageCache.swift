import Foundation
import Synchronization

/// Pages of the change feed as they were sent, kept for the next device that asks for the same
/// page of the same group while nothing in the group has changed (issue 16: "encode once").
///
/// A first sync reads the whole feed, and a group's devices often sync together: after an
/// import, at the start of a trip, when the web app opens on several phones. Reading, encoding
/// and compressing a page of 1,000 expenses costs the server about 35 ms of CPU; sending the
/// bytes it already made costs almost nothing. The key holds the group's change number read
/// before the page (`FeedUseCases.pageState`), which every write the feed shows moves, so a
/// page is never served after a change: a changed group asks for new keys, and the old pages
/// age out. Nothing here is shared between servers, and nothing needs to be: each reads the
/// change number from the database.
///
/// The page that holds the group object also holds the caller's membership, so it is kept for
/// that member only (`Page.viewer`); every other page is the same for all members.
///
/// Devices asking for a page that is being made wait for it rather than make it again. Pages
/// are dropped least recently used first once they hold more than `capacity` bytes
/// (`FEED_CACHE_MB`; 0 turns all this off).
final class FeedPageCache: Sendable {
    struct Key: Hashable, Sendable {
        var groupID: UUID
        /// The query as it came: an equal page asked for in other words is only a miss.
        var since: String?
        var limit: Int?
        var changeSeq: Int64
        var gzip: Bool
    }

    struct Page: Sendable {
        var bytes: [UInt8]
        /// Whether `bytes` are gzip (a small page goes as it is even to a client that takes gzip).
        var gzipped: Bool
        /// The member whose membership the page shows, when it holds the group object.
        var viewer: UUID?

        func serves(_ viewer: UUID) -> Bool { self.viewer == nil || self.viewer == viewer }
    }

    /// How many bytes of pages are kept: a first sync of 10,000 expenses is about 1.6 MB gzipped.
    let capacity: Int
    /// Pages smaller than this are sent but not kept: a few expenses cost little to make again,
    /// and tens of thousands of small pages would make finding the least recently used slow.
    let smallest: Int

    private struct Stored {
        var page: Page
        var used: UInt64
    }

    private struct State {
        var pages: [Key: Stored] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        /// Pages being made, with the devices waiting for them.
        var flights: [Key: [CheckedContinuation<Outcome, Never>]] = [:]
    }

    private enum Outcome: Sendable {
        case hit(Page)
        case lead
        /// The page another request made for the same key, or nil when that failed.
        case joined(Page?)
    }

    private let state = Mutex(State())

    init(capacity: Int = 24 << 20, smallest: Int = 4_096) {
        self.capacity = capacity
        self.smallest = smallest
    }

    /// The page for `key` as `viewer` sees it: kept, made by another request just now, or made
    /// by `make` (and kept).
    func page(_ key: Key, viewer: UUID, make: () async throws -> Page) async throws -> Page {
        // Keeping nothing: no waiting for another request's page either.
        guard capacity > 0 else { return try await make() }
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let now: Outcome? = state.withLock { state in
                state.clock += 1
                if let stored = state.pages[key], stored.page.serves(viewer) {
                    state.pages[key]?.used = state.clock
                    return .hit(stored.page)
                }
                if state.flights[key] != nil {
                    state.flights[key]!.append(continuation)
                    return nil
                }
                state.flights[key] = []
                return .lead
            }
            if let now { continuation.resume(returning: now) }
        }
        switch outcome {
        case .hit(let page):
            return page
        case .joined(let page?) where page.serves(viewer):
            return page
        case .joined:
            // Another member's page, or the request making it failed: make this one's own.
            let page = try await make()
            keep(page, for: key)
            return page
        case .lead:
            let page: Page
            do {
                page = try await make()
            } catch {
                land(nil, for: key)
                throw error
            }
            land(page, for: key)
            return page
        }
    }

    /// The bytes kept now (for tests).
    var storedBytes: Int { state.withLock { $0.bytes } }

    /// Ends `key`'s flight: keeps the page and hands it to the requests that waited for it.
    private func land(_ page: Page?, for key: Key) {
        let waiting = state.withLock { state in
            if let page { Self.keep(page, for: key, in: &state, capacity: capacity, smallest: smallest) }
            return state.flights.removeValue(forKey: key) ?? []
        }
        for continuation in waiting { continuation.resume(returning: .joined(page)) }
    }

    private func keep(_ page: Page, for key: Key) {
        state.withLock { Self.keep(page, for: key, in: &$0, capacity: capacity, smallest: smallest) }
    }

    private static func keep(_ page: Page, for key: Key, in state: inout State, capacity: Int, smallest: Int) {
        // A page larger than a quarter of the room would push out most of what is kept.
        guard page.bytes.count >= smallest, page.bytes.count <= capacity / 4 else { return }
        state.clock += 1
        // The group's pages from before this change number: only a request that read the old
        // number before the change could still ask for one.
        for (stale, stored) in state.pages where stale.groupID == key.groupID && stale.changeSeq < key.changeSeq {
            state.bytes -= stored.page.bytes.count
            state.pages.removeValue(forKey: stale)
        }
        if let old = state.pages.updateValue(Stored(page: page, used: state.clock), forKey: key) {
            state.bytes -= old.page.bytes.count
        }
        state.bytes += page.bytes.count
        while state.bytes > capacity, let oldest = state.pages.min(by: { $0.value.used < $1.value.used }) {
            state.bytes -= oldest.value.page.bytes.count
            state.pages.removeValue(forKey: oldest.key)
        }
    }
}
