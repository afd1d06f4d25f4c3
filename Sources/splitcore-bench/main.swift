// Release-mode benchmarks of the money engine: `swift run -c release splitcore-bench`.
// Each figure is the median (and min/max) of several timed runs on pre-built inputs, so only the
// SplitCore work is measured. Results and targets live in docs/benchmarks.md.

import Foundation
import SplitCore
import SplitTestSupport

/// Times `body` `runs` times after one warm-up run; the result of each run is kept alive.
func measure<T>(_ name: String, runs: Int, target: Duration? = nil, _ body: () throws -> T) rethrows -> BenchMeasurement
{
    let clock = ContinuousClock()
    var sink: [T] = []
    sink.append(try body())
    var durations: [Duration] = []
    for _ in 0..<runs {
        let start = clock.now
        let result = try body()
        durations.append(clock.now - start)
        sink.append(result)
    }
    precondition(sink.count == runs + 1)
    return BenchMeasurement(name: name, runs: durations, target: target)
}

// `splitcore-bench [plan|balances|split|quick|json]` runs only the named groups (all when none is named).
let selected = Set(CommandLine.arguments.dropFirst())
func wanted(_ group: String) -> Bool { selected.isEmpty || selected.contains(group) }

var results: [BenchMeasurement] = []
print("SplitCore benchmarks (release build, \(ProcessInfo.processInfo.activeProcessorCount) cores)")

// Settlement plans: random nets that sum to zero, amounts up to 1,000,000 minor units.
for count in [12, 16, 20] where wanted("plan") {
    var builder = ScenarioBuilder(seed: UInt64(count), memberCount: count)
    let nets = builder.nets(count: count, magnitude: 1_000_000)
    results.append(
        try measure("plan, \(count) non-zero balances (exact)", runs: 15, target: count == 20 ? .milliseconds(25) : nil)
        {
            try SettlementPlan.plan(nets)
        })
    print(results.last!.line(width: 46))
}
if wanted("plan") {
    var builder = ScenarioBuilder(seed: 22, memberCount: 22)
    let nets = builder.nets(count: 22, magnitude: 1_000_000)
    results.append(
        try measure("plan, 22 non-zero balances (greedy fallback)", runs: 15) { try SettlementPlan.plan(nets) })
    print(results.last!.line(width: 46))
    results.append(
        try measure("plan, 22 non-zero balances (exact, forced)", runs: 5) { try SettlementPlan.minimalPlan(nets) })
    print(results.last!.line(width: 46))
}

// Balances over 100,000 expenses in three currencies, 2–8 members each, 1–3 payers.
if wanted("balances") {
    var builder = ScenarioBuilder(seed: 100_000, memberCount: 8)
    let expenses = (0..<100_000).map { _ in builder.expense() }
    results.append(
        try measure("balances over 100,000 expenses", runs: 51, target: .milliseconds(50)) {
            try Balances(expenses: expenses)
        })
    print(results.last!.line(width: 46))
}

// Splitting 1,000,000 expenses: a mix of equal, shares and percent rules over 2–6 members.
if wanted("split") {
    var rng = SplitMix64(seed: 1_000_000)
    let memberPool = (1...6).map(member)
    let inputs: [(Money, [MemberAmount], SplitRule, TieBreak)] = (0..<1_000_000).map { index in
        let total = Int64.random(in: 1...5_000_000, using: &rng)
        let members = Array(memberPool.prefix(Int.random(in: 2...6, using: &rng)))
        let rule: SplitRule =
            switch index % 3 {
            case 0: .equal(members)
            case 1:
                .shares(
                    members.map { MemberDecimal($0, DecimalValue(significand: Int64.random(in: 1...5, using: &rng))) })
            default:
                .percent(
                    members.enumerated().map { position, id in
                        let base = 10_000 / Int64(members.count)
                        let share = position == 0 ? 10_000 - base * Int64(members.count - 1) : base
                        return MemberDecimal(id, DecimalValue(significand: share, scale: 2))
                    })
            }
        return (
            Money(minorUnits: total, currency: .usd), [MemberAmount(members[0], total)], rule,
            TieBreak(seed: "expense-\(index)")
        )
    }
    results.append(
        try measure("split 1,000,000 expenses", runs: 3) {
            var owedSum: Int64 = 0
            for (total, payers, rule, tieBreak) in inputs {
                let split = try ExpenseSplit.compute(total: total, payers: payers, rule: rule, tieBreak: tieBreak)
                owedSum &+= split.owed[0].amount
            }
            return owedSum
        })
    print(results.last!.line(width: 46))
}

// Quick entry (issue 21): the issue's lines, each read 1,000 times; goal 50 µs a line.
if wanted("quick") {
    let people = ["Aki", "Bo", "Chen", "Mei Lin"].enumerated().map {
        QuickEntryContext.Person(id: MemberID(UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8($0.offset + 1)))), name: $0.element)
    }
    let context = QuickEntryContext(
        people: people, me: people[0].id, homeCurrency: try Currency(code: "MYR"),
        categories: ["Meal", "Transport", "Tickets", "Shopping", "Hotel", "Other"], today: CivilDate("2026-11-26")!)
    let lines = [
        "Ramen ¥1200 paid by Aki, all", "Taxi 45.50 MYR Bo Chen", "Hotel 30000 JPY split 2:1:1 Aki Bo Chen",
        "Dinner RM 120 for everyone except Chen", "Groceries 12*3+4.50 for all", "Coffee 5 SGD yesterday me",
        "Museum 1,800円 Aki paid, Bo and me", "Tickets 60 EUR Aki 40 Bo 20", "Refund 30 EUR to Aki split all",
    ]
    for line in lines {
        guard case .success = QuickEntry.parse(line, context: context) else { fatalError("not read: \(line)") }
    }
    results.append(
        measure("quick entry, 9,000 lines (goal: 50 µs a line)", runs: 11, target: .milliseconds(450)) {
            var read = 0
            for _ in 0..<1_000 {
                for line in lines {
                    if case .success = QuickEntry.parse(line, context: context) { read += 1 }
                }
            }
            return read
        })
    print(results.last!.line(width: 46))
}

// The API's check for a key said twice (JSONText.duplicateKey), on every JSON body before it is
// decoded: a create as the bench sends it, 10,000 times; a batch of 200 of them, 100 times.
if wanted("json") {
    let member = "0b9a4c1e-8d2f-4e6a-9c3b-5f7e1d2a4b6c"
    func create(_ index: Int) -> String {
        #"{"id":"\#(UUID().uuidString.lowercased())","groupId":"\#(member)","description":"Dinner \#(index) at the \"Ramen\" place","amount":"12.50","currency":"USD","expenseDate":"2026-11-26","category":"Meal","paidBy":[{"memberId":"\#(member)","amount":"12.50"}],"split":{"mode":"exact","amounts":[{"memberId":"\#(member)","amount":"6.25"},{"memberId":"\#(member)","amount":"6.25"}]}}"#
    }
    var one = create(0)
    let batch = "{\"expenses\":[" + (0..<200).map(create).joined(separator: ",") + "]}"
    precondition(one.withUTF8 { JSONText.duplicateKey(in: $0) } == nil)
    for (name, text, times, target) in [
        ("key twice? a create ×10,000 (5 µs each)", one, 10_000, Duration.milliseconds(50)),
        ("key twice? a batch of 200 ×100 (1 ms each)", batch, 100, Duration.milliseconds(100)),
    ] {
        var body = text
        results.append(
            measure(name, runs: 11, target: target) {
                var found = 0
                for _ in 0..<times where body.withUTF8({ JSONText.duplicateKey(in: $0) }) != nil { found += 1 }
                return found
            })
        print(results.last!.line(width: 46))
    }
}

let missed = results.filter { !$0.isMet }
if !missed.isEmpty {
    print("Missed targets: \(missed.map(\.name).joined(separator: ", "))")
    exit(1)
}
