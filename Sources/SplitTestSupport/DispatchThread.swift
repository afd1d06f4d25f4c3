import Foundation

/// Runs blocking work (waiting for a process, a synchronous read) on a Dispatch thread and
/// awaits it. Blocking one of the few threads every test's async code shares starves other
/// suites for as long as it blocks: under the full run on two cores, their waits ran out.
public func onDispatchThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}
