import NIOCore

/// Runs a task's jobs on one NIO event loop: the task executor that HTTP connections and
/// PostgreSQL transactions prefer (issue 16; docs/benchmarks.md). Code in such a task goes on
/// where the event loop read its answer, instead of waking a thread of Swift's pool to go on:
/// two thread switches saved for every round trip.
///
/// A task that prefers it holds the loop while it computes, as every channel handler on that
/// loop does; work that computes for long (password hashing, imports) belongs on a pool of
/// its own or in `Database.longTransaction`.
public final class EventLoopTaskExecutor: TaskExecutor {
    public let eventLoop: any EventLoop

    public init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
