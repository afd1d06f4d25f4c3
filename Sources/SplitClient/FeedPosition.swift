import Foundation

/// Where a page of the change feed ends and whether more follow, read from the page's bytes as
/// soon as they have arrived, before the page is decoded: `SyncEngine.pull` asks the server for
/// the next page with it while this one is decoded and stored (issue 16: a first sync waited for
/// each page's decoding before the server began the next one).
struct FeedPosition: Equatable, Sendable {
    var cursor: String
    var hasMore: Bool

    /// Finds `"cursor":"…"` and `"hasMore":true|false` in an answer of `GET …/changes`. Only the
    /// page object has these keys, and a string value cannot hold them unescaped (a `"` inside
    /// one is written `\"`), so the first of each is the page's own. Nil when either is missing
    /// or not as the API writes it: the decoded page then decides alone.
    init?(scanning bytes: [UInt8]) {
        guard let cursorStart = Self.end(of: Array(#""cursor":""#.utf8), in: bytes),
            let cursorEnd = bytes[cursorStart...].firstIndex(of: UInt8(ascii: "\"")),
            bytes[cursorStart..<cursorEnd].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let moreStart = Self.end(of: Array(#""hasMore":"#.utf8), in: bytes)
        else { return nil }
        cursor = String(decoding: bytes[cursorStart..<cursorEnd], as: UTF8.self)
        if bytes[moreStart...].starts(with: "true".utf8) {
            hasMore = true
        } else if bytes[moreStart...].starts(with: "false".utf8) {
            hasMore = false
        } else {
            return nil
        }
    }

    init(cursor: String, hasMore: Bool) {
        self.cursor = cursor
        self.hasMore = hasMore
    }

    /// The index just past the first occurrence of `needle`.
    private static func end(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        var index = 0
        while let found = bytes[index...].firstIndex(of: first), found + needle.count <= bytes.count {
            if bytes[found..<(found + needle.count)].elementsEqual(needle) { return found + needle.count }
            index = found + 1
        }
        return nil
    }
}

/// One page of the change feed, fetched and decoded in a task of its own, with its position told
/// as soon as its bytes are in (nil when it could not be read early, or the fetch failed).
struct PageFetch: Sendable {
    let page: Task<Changes, any Error>
    let position: Task<FeedPosition?, Never>

    init(client: SplitterClient, groupID: String, since: String?, limit: Int?) {
        let (positions, told) = AsyncStream<FeedPosition?>.makeStream()
        page = Task {
            // The position is told once: by `changes` as soon as the page's bytes are in, or as
            // nil here (a second yield after `finish` is dropped).
            do {
                let page = try await client.changes(groupID: groupID, since: since, limit: limit) {
                    position in
                    told.yield(position)
                    told.finish()
                }
                told.yield(nil)
                told.finish()
                return page
            } catch {
                told.yield(nil)
                told.finish()
                throw error
            }
        }
        position = Task {
            for await position in positions { return position }
            return nil
        }
    }

    /// The decoded page; cancelling the caller cancels the fetch.
    func value() async throws -> Changes {
        try await withTaskCancellationHandler {
            try await page.value
        } onCancel: {
            page.cancel()
        }
    }

    func cancel() {
        page.cancel()
    }
}
