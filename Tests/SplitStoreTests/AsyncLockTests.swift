import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import SplitStore

/// The lock every SQLite session runs under.
@Suite("The SQLite session lock")
struct AsyncLockTests {
    @Test("one holder at a time; 200 tasks all get in and out")
    func exclusive() async {
        let lock = AsyncLock()
        let inside = Shared((now: 0, most: 0, total: 0))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    await lock.withLock {
                        inside.withLock { $0.now += 1; $0.total += 1; $0.most = max($0.most, $0.now) }
                        await Task.yield()
                        inside.withLock { $0.now -= 1 }
                    }
                }
            }
        }
        let counts = inside.withLock { $0 }
        #expect(counts.most == 1)
        #expect(counts.total == 200)
        #expect(lock.waiting == 0)
    }

    @Test("off the event loops, waiters get in in the order they came")
    func firstComeFirstServed() async throws {
        let lock = AsyncLock()
        let order = Shared<[Int]>([])
        await lock.lock()
        var tasks: [Task<Void, Never>] = []
        for index in 0..<5 {
            tasks.append(Task { await lock.withLock { order.withLock { $0.append(index) } } })
            try await waitUntil { lock.waiting == index + 1 }
        }
        lock.unlock()
        for task in tasks { await task.value }
        #expect(order.withLock { $0 } == [0, 1, 2, 3, 4])
    }

    @Test("unlocking on an event loop passes the lock to the first waiter on another loop, then back")
    func otherLoopFirst() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let loops = [group.next(), group.next()]
        #expect(loops[0] !== loops[1])
        let lock = AsyncLock()
        let order = Shared<[String]>([])
        let holding = Shared(false)
        let release = Shared(false)
        // The holder runs on loop 0.
        let holder = Task(executorPreference: EventLoopTaskExecutor(loops[0])) {
            await lock.lock()
            holding.withLock { $0 = true }
            while !release.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(1)) }
            order.withLock { $0.append("holder") }
            lock.unlock()
        }
        try await waitUntil { holding.withLock { $0 } }
        // First a waiter on the holder's loop, then one on the other loop.
        let sameLoop = Task(executorPreference: EventLoopTaskExecutor(loops[0])) {
            await lock.withLock { order.withLock { $0.append("same loop") } }
        }
        try await waitUntil { lock.waiting == 1 }
        let otherLoop = Task(executorPreference: EventLoopTaskExecutor(loops[1])) {
            await lock.withLock { order.withLock { $0.append("other loop") } }
        }
        try await waitUntil { lock.waiting == 2 }
        release.withLock { $0 = true }
        await holder.value
        await sameLoop.value
        await otherLoop.value
        #expect(order.withLock { $0 } == ["holder", "other loop", "same loop"])
        #expect(lock.waiting == 0)
        try await group.shutdownGracefully()
    }

    private func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw TimedOut() }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    private struct TimedOut: Error {}

    /// A value tasks share, behind a mutex.
    private final class Shared<Value: Sendable>: Sendable {
        private let mutex: Mutex<Value>
        init(_ value: Value) { mutex = Mutex(value) }
        func withLock<T: Sendable>(_ body: (inout sending Value) -> sending T) -> T { mutex.withLock(body) }
    }
}
