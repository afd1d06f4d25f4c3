import Foundation
import SplitApp
import Synchronization
import Testing

/// Issue 14 item 10: writes per account per minute, on a clock the test moves.
@Suite("Writes per account per minute")
struct WriteThrottleTests {
    final class Clock: Sendable {
        let milliseconds = Atomic<Int64>(1_000_000)
        func advance(seconds: Int64) { milliseconds.add(seconds * 1_000, ordering: .relaxed) }
        var now: @Sendable () -> Int64 { { [self] in self.milliseconds.load(ordering: .relaxed) } }
    }

    static func wait(_ body: () throws -> Void) -> Int? {
        do {
            try body()
            return nil
        } catch AppError.rateLimited(let seconds) {
            return seconds
        } catch {
            Issue.record("unexpected \(error)")
            return -1
        }
    }

    @Test("a minute's writes go through at once, the next waits for the refill; others are not held")
    func bucket() {
        let clock = Clock()
        let throttle = WriteThrottle(perMinute: 3, now: clock.now)
        let (aki, bo) = (UUID(), UUID())
        for _ in 0..<3 { #expect(Self.wait { try throttle.spend(aki) } == nil) }
        // One write is free again every 20 s.
        #expect(Self.wait { try throttle.spend(aki) } == 20)
        #expect(Self.wait { try throttle.spend(bo) } == nil)
        clock.advance(seconds: 15)
        #expect(Self.wait { try throttle.spend(aki) } == 5)
        clock.advance(seconds: 5)
        #expect(Self.wait { try throttle.spend(aki) } == nil)
        #expect(Self.wait { try throttle.spend(aki) } == 20)
        // A quiet hour fills the bucket only to its size.
        clock.advance(seconds: 3_600)
        for _ in 0..<3 { #expect(Self.wait { try throttle.spend(aki) } == nil) }
        #expect(Self.wait { try throttle.spend(aki) } != nil)
    }

    @Test("0 turns the limit off")
    func off() {
        let throttle = WriteThrottle(perMinute: 0, now: { 0 })
        let aki = UUID()
        for _ in 0..<10_000 { #expect(Self.wait { try throttle.spend(aki) } == nil) }
    }

    @Test("idle accounts are swept once the table is large, and the limit still holds for the busy one")
    func sweep() {
        let clock = Clock()
        let throttle = WriteThrottle(perMinute: 2, now: clock.now)
        let busy = UUID()
        #expect(Self.wait { try throttle.spend(busy) } == nil)
        #expect(Self.wait { try throttle.spend(busy) } == nil)
        for _ in 1..<WriteThrottle.sweepAbove { #expect(Self.wait { try throttle.spend(UUID()) } == nil) }
        #expect(throttle.trackedAccounts == WriteThrottle.sweepAbove)
        clock.advance(seconds: 120)
        // Every bucket is full again: the next spend sweeps them all and still counts its own.
        #expect(Self.wait { try throttle.spend(UUID()) } == nil)
        #expect(throttle.trackedAccounts == 1)
        #expect(Self.wait { try throttle.spend(busy) } == nil)
        #expect(Self.wait { try throttle.spend(busy) } == nil)
        #expect(Self.wait { try throttle.spend(busy) } == 30)
    }
}
