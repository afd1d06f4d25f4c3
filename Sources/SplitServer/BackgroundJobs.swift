import Logging
import SplitStore

/// Every kind of background job this server runs (docs/architecture.md, "Jobs"), by the name
/// its rows carry in the jobs table. Each feature that queues work adds its kinds here; the
/// one `JobRunner` in `buildApplication`'s services runs them all.
struct BackgroundJobs {
    var kinds: [String: JobRunner.Kind] = [:]

    mutating func add(_ name: String, _ kind: JobRunner.Kind) {
        precondition(kinds[name] == nil, "two handlers for job kind \(name)")
        kinds[name] = kind
    }
}
