import Hummingbird

/// Lets only a few of the reads that build large answers (a page of up to 1,000 changes, a page
/// of expenses) run at once; the others wait their turn. Such a page holds a few megabytes while
/// it is read and encoded, so 50 devices syncing at once on PostgreSQL, whose connection pool
/// runs them side by side, took the server to 240 MB; DESIGN §9 asks for under 150 MB with 50
/// clients. On SQLite they queue for the one connection anyway, so nothing is lost there.
///
/// The permit is held until the handler has returned its answer, whose body is encoded bytes by
/// then; it is never held while the answer is written to a slow client.
struct HeavyReadMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let gate: Gate

    init(concurrentReads: Int) {
        self.gate = Gate(limit: concurrentReads)
    }

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        guard request.method == .get, Self.isHeavy(request.uri.path) else { return try await next(request, context) }
        await gate.enter()
        do {
            let response = try await next(request, context)
            await gate.leave()
            return response
        } catch {
            await gate.leave()
            throw error
        }
    }

    /// `/api/groups/{id}/changes` and `/api/groups/{id}/expenses`.
    static func isHeavy(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 5 && parts[1] == "api" && parts[2] == "groups"
            && (parts[4] == "changes" || parts[4] == "expenses")
    }

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
