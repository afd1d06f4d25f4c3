import Foundation

/// One benchmark figure: the timed runs of one thing, and the target it is held to (DESIGN §9).
/// Shared by the release-mode benchmarks (`splitcore-bench`, `splitclient-bench`).
public struct BenchMeasurement: Sendable {
    public let name: String
    public let runs: [Duration]
    public let target: Duration?

    public init(name: String, runs: [Duration], target: Duration?) {
        self.name = name
        self.runs = runs
        self.target = target
    }

    public var median: Duration { runs.sorted()[runs.count / 2] }

    /// Whether the median meets the target (true when there is none).
    public var isMet: Bool { target.map { median <= $0 } ?? true }

    /// "name   median … min … max … (n runs)  (target ≤ …: met)", the name padded to `width`.
    public func line(width: Int = 52) -> String {
        let sorted = runs.sorted()
        let verdict = target.map { "  (target ≤ \(Self.milliseconds($0)): \(isMet ? "met" : "MISSED"))" } ?? ""
        return name.padding(toLength: width, withPad: " ", startingAt: 0)
            + "median \(Self.milliseconds(median))  min \(Self.milliseconds(sorted[0]))  "
            + "max \(Self.milliseconds(sorted[sorted.count - 1]))  (\(runs.count) runs)" + verdict
    }

    /// "0.123 ms" below 10 ms, "123.4 ms" above.
    public static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
        return String(format: value < 10 ? "%.3f ms" : "%.1f ms", value)
    }
}
