import Logging
import ServiceLifecycle
import SplitApp

/// Makes the recurring expenses that fell due (issue 20), at start-up and then every
/// `interval` seconds, on every server that runs jobs: `RecurringUseCases.materializeDue` makes
/// each (series, date) once whatever other servers do at the same moment, and catches up after
/// any downtime.
struct RecurringRunner: Service {
    let recurring: RecurringUseCases
    let interval: Int
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let started = ContinuousClock.now
                    let made = try await recurring.materializeDue()
                    if made > 0 {
                        let took = ContinuousClock.now - started
                        let milliseconds = took.components.seconds * 1_000 + took.components.attoseconds / 1_000_000_000_000_000
                        logger.info("recurring expenses made", metadata: ["count": "\(made)", "ms": "\(milliseconds)"])
                    }
                } catch {
                    logger.warning("making recurring expenses failed", metadata: ["error": "\(String(reflecting: error))"])
                }
                try? await Task.sleep(for: .seconds(interval))
            }
        }
    }
}
