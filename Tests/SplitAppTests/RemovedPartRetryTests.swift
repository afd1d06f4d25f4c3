import SplitStore
import Synchronization
import Testing

@testable import SplitApp

/// The use cases' answer when the store finds, under the group's lock, that someone was removed
/// between the question about removed members' parts and the write (`removedPartMoves`).
@Suite("A removed member found in the write")
struct RemovedPartRetryTests {
    @Test("the write runs once more, told it is the second try; a second refusal is a conflict to retry, not a server error")
    func askedAgain() async throws {
        let tries = Mutex<[Bool]>([])
        // The first try meets the store's refusal; the second, told so, answers.
        let answer = try await ExpenseUseCases.askingAgainIfRemoved { again -> String in
            tries.withLock { $0.append(again) }
            if !again { throw ExpenseStoreError.removedPartMoves }
            return "asked afresh"
        }
        #expect(answer == "asked afresh" && tries.withLock { $0 } == [false, true])
        // Within a write: the first try's refusal goes up to be asked again; the second's is said.
        await #expect(throws: ExpenseStoreError.removedPartMoves) {
            try await ExpenseUseCases.removedPartsRefusal(again: false) { () async throws -> Int in
                throw ExpenseStoreError.removedPartMoves
            }
        }
        do {
            _ = try await ExpenseUseCases.removedPartsRefusal(again: true) { () async throws -> Int in
                throw ExpenseStoreError.removedPartMoves
            }
            Issue.record("a second refusal was not said")
        } catch AppError.conflict(let code, _, let message) {
            #expect(code == "conflict" && message.hasPrefix("Someone in this expense was removed from the group just now"))
        }
    }
}
