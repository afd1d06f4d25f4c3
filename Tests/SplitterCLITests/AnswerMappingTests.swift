import Foundation
import SplitAPI
import Testing

@testable import SplitClient

/// `SplitterClient.call` finds an operation's `default` answer (the one error envelope) by the
/// case's name and payload, because the generated answers share no protocol: these pin that it
/// does so for any operation, and leaves every other answer to the method that asked.
@Suite("The SDK's one mapping of error answers")
struct AnswerMappingTests {
    @Test("an operation's default answer becomes the SplitterError its status, envelope and Retry-After say")
    func defaultAnswer() {
        // setup
        let envelope = Components.Schemas.ErrorEnvelope(error: .init(code: "not_found", message: "No such group."))
        let answer = Components.Responses._Error(headers: .init(retryAfter: 7), body: .json(envelope))

        // act
        let notFound = SplitterClient.failure(in: Operations.GetGroup.Output.default(statusCode: 404, answer))
        let limited = SplitterClient.failure(in: Operations.DeleteBudget.Output.default(statusCode: 429, answer))

        // validate
        #expect(notFound == .notFound("No such group."))
        #expect(limited == .rateLimited(retryAfterSeconds: 7))
        #expect(notFound == SplitterClient.failure(404, answer))
    }

    @Test("any other answer is not an error")
    func otherAnswers() {
        #expect(SplitterClient.failure(in: Operations.DeleteBudget.Output.noContent(.init())) == nil)
    }
}
