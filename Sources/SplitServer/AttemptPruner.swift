import Logging
import ServiceLifecycle
import SplitStore

/// Forgets rate-limit attempts older than every window, every ten minutes: subjects that never
/// come back (random emails tried once) would otherwise stay in the table for good.
struct AttemptPruner: Service {
    let attempts: AttemptStore
    let keepMilliseconds: Int64
    let now: @Sendable () -> Int64
    let logger: Logger

    func run() async throws {
        // Stops at once on SIGTERM: the sleep is cancelled, which ends the loop.
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await attempts.prune(before: now() - keepMilliseconds)
                } catch {
                    logger.warning(
                        "pruning rate-limit attempts failed", metadata: ["error": "\(String(reflecting: error))"])
                }
                try? await Task.sleep(for: .seconds(600))
            }
        }
    }
}
