import Foundation

/// Checks independent inputs one after another and keeps every refusal, so one answer says all
/// that is wrong (issue 15: an empty form flags every empty field, not only the first). Checks
/// that depend on an earlier value (an amount needs its currency) run only once it was read.
struct FieldChecks {
    private(set) var problems: [AppError.FieldProblem] = []

    /// The checked value, or nil when it was refused (the refusal is kept). Errors other than
    /// wrong input (a database failure, a refusal by role) are thrown at once.
    mutating func run<T>(_ check: () throws -> T) throws -> T? {
        do {
            return try check()
        } catch let error as AppError where !error.fieldProblems.isEmpty {
            problems += error.fieldProblems
            return nil
        }
    }

    mutating func run<T>(_ check: () async throws -> T) async throws -> T? {
        do {
            return try await check()
        } catch let error as AppError where !error.fieldProblems.isEmpty {
            problems += error.fieldProblems
            return nil
        }
    }

    /// A refusal found without a throwing check.
    mutating func add(field: String, message: String) {
        problems.append(.init(field: field, message: message))
    }

    /// Throws what was found: one refusal as `.invalid`, several as `.invalidFields`.
    func finish() throws {
        switch problems.count {
        case 0: return
        case 1: throw AppError.invalid(field: problems[0].field, message: problems[0].message)
        default: throw AppError.invalidFields(problems)
        }
    }
}
