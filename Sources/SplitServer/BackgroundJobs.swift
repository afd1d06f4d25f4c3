import Logging
import SplitStore

/// Every kind of background job this server runs (docs/architecture.md, "Jobs"), by the name
/// its rows carry in the jobs table. Each feature that queues work adds its kinds here, in a
/// lane; `buildApplication` runs each lane's own `JobRunner`s, so work of one lane never waits
/// behind another's (a webhook that takes its 10 s to fail does not hold up a verification mail).
struct BackgroundJobs {
    enum Lane: String, CaseIterable, Sendable {
        case mail
        case webhooks

        /// Jobs of the lane that one server runs at once.
        var workers: Int {
            switch self {
            case .mail: 1
            // Deliveries wait on other people's servers: several at once.
            case .webhooks: 4
            }
        }
    }

    var kinds: [String: JobRunner.Kind] = [:]
    var lanes: [String: Lane] = [:]

    mutating func add(_ name: String, _ kind: JobRunner.Kind, lane: Lane) {
        precondition(kinds[name] == nil, "two handlers for job kind \(name)")
        kinds[name] = kind
        lanes[name] = lane
    }

    /// The runners for every lane that has kinds.
    func runners(database: Database, now: @escaping @Sendable () -> Int64, logger: Logger) -> [JobRunner] {
        Lane.allCases.flatMap { lane in
            let laneKinds = kinds.filter { lanes[$0.key] == lane }
            guard !laneKinds.isEmpty else { return [JobRunner]() }
            return (0..<lane.workers).map { _ in
                JobRunner(database: database, kinds: laneKinds, now: now, logger: logger)
            }
        }
    }
}
