import HTTPTypes
import Hummingbird

/// Requests that compute for long: where they run, and how many large reads run at once.
///
/// **Off the event loop.** Requests run on their connection's event loop
/// (`LoopPinnedHTTP1Channel`), which suits the short ones. A page of 1,000 changes takes tens of
/// milliseconds to read and encode, an import or an export longer; on a loop that would hold up
/// every other request of the loop, the SQLite lock's holder among them: 50 devices syncing at
/// once took half as long again (issue 16). So these run on Swift's pool.
///
/// **A few large reads at a time.** A page of changes or of expenses holds a few megabytes while
/// it is read and encoded, so 50 devices syncing at once on PostgreSQL, whose connection pool
/// runs them side by side, took the server to 240 MB; DESIGN §9 asks for under 150 MB with 50
/// clients. Only a few run at once; the others wait their turn. On SQLite they queue for the
/// one connection anyway, so nothing is lost there. The permit is held until the handler has
/// returned its answer, whose body is encoded bytes by then; it is never held while the answer
/// is written to a slow client.
struct HeavyRequestMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let gate: Gate

    init(concurrentReads: Int) {
        self.gate = Gate(limit: concurrentReads)
    }

    enum Weight: Equatable {
        /// Runs where it is, on its connection's event loop.
        case light
        /// Runs on Swift's pool.
        case long
        /// Runs on Swift's pool, a few at a time.
        case largeRead
    }

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        let weight = Self.weight(request.method, request.uri.path)
        if weight == .light { return try await next(request, context) }
        if weight == .largeRead { await gate.enter() }
        do {
            let response = try await withTaskExecutorPreference(globalConcurrentExecutor) {
                try await next(request, context)
            }
            if weight == .largeRead { await gate.leave() }
            return response
        } catch {
            if weight == .largeRead { await gate.leave() }
            throw error
        }
    }

    /// Large reads: `GET /api/groups/{id}/changes` and `/api/groups/{id}/expenses`. Long: the
    /// batch of queued expenses, imports and exports, in the API and in the web app.
    static func weight(_ method: HTTPRequest.Method, _ path: String) -> Weight {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        func matches(_ pattern: [Substring]) -> Bool {
            parts.count == pattern.count && zip(parts, pattern).allSatisfy { $1 == "*" || $0 == $1 }
        }
        if method == .get, Self.largeReads.contains(where: matches) { return .largeRead }
        if Self.long.contains(where: { $0.method == method && matches($0.path) }) { return .long }
        return .light
    }

    /// Path patterns, `*` for an id.
    private static let largeReads: [[Substring]] = [["api", "groups", "*", "changes"], ["api", "groups", "*", "expenses"]]
    private static let long: [(method: HTTPRequest.Method, path: [Substring])] = [
        (.post, ["api", "expenses", "batch"]), (.post, ["api", "imports"]), (.post, ["api", "groups", "*", "imports"]),
        (.get, ["api", "groups", "*", "export"]), (.get, ["auth", "export"]), (.post, ["import"]),
        (.post, ["groups", "*", "import"]), (.get, ["groups", "*", "export"]), (.get, ["account", "export"]),
    ]

    /// A counting semaphore for tasks: `enter` waits while `limit` holders are inside, and
    /// waiters get in in the order they came.
    actor Gate {
        let limit: Int
        private(set) var inside = 0
        private var waiting: [CheckedContinuation<Void, Never>] = []

        init(limit: Int) {
            precondition(limit > 0)
            self.limit = limit
        }

        func enter() async {
            if inside < limit {
                inside += 1
                return
            }
            // The leaver hands its place straight to the first waiter, so `inside` stays put.
            await withCheckedContinuation { waiting.append($0) }
        }

        func leave() {
            if waiting.isEmpty {
                inside -= 1
            } else {
                waiting.removeFirst().resume()
            }
        }
    }
}
