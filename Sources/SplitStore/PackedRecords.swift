import Foundation
import NIOCore
import SQLKit
import SplitCore
import Synchronization

/// A PostgreSQL column holding `array_agg(ROW(…))`: many rows of another table in one cell, in
/// PostgreSQL's binary format (issue 16). An expense's payers and shares come this way on
/// PostgreSQL, so a page of expenses is one row per expense instead of one per expense, payer and
/// share: a feed of 10,000 expenses had 80,000 rows, and PostgresNIO's work for each row (its
/// message, its cells and their retains and releases) was most of the feed's CPU (`perf`).
///
/// Read only from PostgreSQL (`PostgresSQLRow`); decoding it from anything else is an error.
/// A `NULL` cell (`array_agg` of no rows) is the empty list.
struct PackedRecords: Decodable {
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// The array's bytes (from `array_send`), or `nil` for no records.
    private let bytes: ByteBuffer?

    init(_ bytes: ByteBuffer?) {
        self.bytes = bytes
    }

    init(from decoder: any Decoder) throws {
        throw DecodingError.typeMismatch(
            PackedRecords.self,
            .init(codingPath: decoder.codingPath, debugDescription: "Packed records are read only from PostgreSQL."))
    }

    /// Each record's fields, in order, through `read` (which reads every field of one record).
    func map<T>(_ read: (inout Fields) throws -> T) throws -> [T] {
        guard var buffer = bytes else { return [] }
        // array_send: dimensions, a has-nulls flag, the element type, each dimension's length and
        // lower bound, then each element as a length and its bytes.
        let dimensions = try buffer.int32()
        _ = try buffer.int32()
        guard try buffer.uint32() == Self.recordType else { throw Malformed(description: "not an array of records") }
        guard dimensions == 1 else {
            guard dimensions == 0 else { throw Malformed(description: "an array of \(dimensions) dimensions") }
            return []
        }
        let count = try buffer.int32()
        _ = try buffer.int32()
        guard count >= 0 else { throw Malformed(description: "a negative length") }
        var result: [T] = []
        result.reserveCapacity(Int(count))
        for _ in 0..<count {
            let length = try buffer.int32()
            guard length >= 0, var record = buffer.readSlice(length: Int(length)) else {
                throw Malformed(description: "a missing or cut record")
            }
            // record_send: the number of fields, then each as its type, a length and its bytes.
            let fieldCount = try record.int32()
            var fields = Fields(count: fieldCount, buffer: record)
            result.append(try read(&fields))
            guard fields.count == 0, fields.buffer.readableBytes == 0 else {
                throw Malformed(description: "a record with fields left unread")
            }
        }
        guard buffer.readableBytes == 0 else { throw Malformed(description: "bytes after the last record") }
        return result
    }

    /// `record`, the type of `ROW(…)`.
    static let recordType: UInt32 = 2249
    /// `record[]`, the type of `array_agg(ROW(…))`.
    static let recordArrayType: UInt32 = 2287

    /// The fields of one record, read in order; each read checks the field's type.
    struct Fields {
        fileprivate var count: Int32
        fileprivate var buffer: ByteBuffer

        /// A `text` field holding an id.
        mutating func uuid() throws -> UUID {
            guard let bytes = try next(type: 25) else { throw Malformed(description: "a null id") }
            guard let uuid = bytes.withUnsafeReadableBytes({ UUID(utf8: $0) }) else {
                throw Malformed(description: "an id that is not a UUID: \(String(buffer: bytes))")
            }
            return uuid
        }

        /// A `text` field (not NULL).
        mutating func text() throws -> String {
            guard let bytes = try next(type: 25) else { throw Malformed(description: "a null text") }
            guard let text = bytes.withUnsafeReadableBytes({ String(validating: $0, as: UTF8.self) }) else {
                throw Malformed(description: "a text that is not UTF-8")
            }
            return text
        }

        mutating func int64() throws -> Int64 {
            guard let value = try optionalInt64() else { throw Malformed(description: "a null bigint") }
            return value
        }

        mutating func optionalInt64() throws -> Int64? {
            guard let bytes = try next(type: 20) else { return nil }
            guard bytes.readableBytes == 8, let value = bytes.getInteger(at: bytes.readerIndex, as: Int64.self) else {
                throw Malformed(description: "a bigint of \(bytes.readableBytes) bytes")
            }
            return value
        }

        mutating func bool() throws -> Bool {
            guard let bytes = try next(type: 16) else { throw Malformed(description: "a null boolean") }
            guard bytes.readableBytes == 1, let value = bytes.getInteger(at: bytes.readerIndex, as: UInt8.self) else {
                throw Malformed(description: "a boolean of \(bytes.readableBytes) bytes")
            }
            return value != 0
        }

        /// The next field's bytes, `nil` for `NULL`, after checking its type.
        private mutating func next(type: UInt32) throws -> ByteBuffer? {
            guard count > 0 else { throw Malformed(description: "a record with too few fields") }
            count -= 1
            let actual = try buffer.uint32()
            guard actual == type else { throw Malformed(description: "a field of type \(actual), not \(type)") }
            let length = try buffer.int32()
            guard length >= 0 else { return nil }
            guard let bytes = buffer.readSlice(length: Int(length)) else { throw Malformed(description: "a cut field") }
            return bytes
        }
    }
}

extension ByteBuffer {
    fileprivate mutating func int32() throws -> Int32 {
        guard let value = readInteger(as: Int32.self) else { throw PackedRecords.Malformed(description: "a cut array") }
        return value
    }

    fileprivate mutating func uint32() throws -> UInt32 {
        guard let value = readInteger(as: UInt32.self) else { throw PackedRecords.Malformed(description: "a cut array") }
        return value
    }
}

/// The SQL of the two packed columns of an expense row on PostgreSQL, for a query over
/// `expenses` (named `expenses`, unaliased), and how they are read.
enum PackedExpense {
    static let columns = """
        (SELECT array_agg(ROW(p.member_id, p.amount)) FROM expense_payers p WHERE p.expense_id = expenses.id) \
        AS packed_payers, \
        (SELECT array_agg(ROW(s.id, s.member_id, s.amount, s.is_paid, s.paid_at, s.is_removed)) \
        FROM expense_splits s WHERE s.expense_id = expenses.id) AS packed_shares
        """

    /// The records of `query`'s rows, in their order. Each row is read into its record as it
    /// arrives, on the connection's thread, while PostgreSQL makes the rows after it: reading
    /// them after the last had come was a quarter of the server's work for a feed page, done
    /// while PostgreSQL waited for the next request (issue 16).
    static func records(_ query: some SQLQueryFetcher) async throws -> [ExpenseRecord] {
        let read = Mutex<(records: [ExpenseRecord], error: (any Error)?)>(([], nil))
        try await query.run { row in
            read.withLock { read in
                guard read.error == nil else { return }
                do { read.records.append(try record(row)) } catch { read.error = error }
            }
        }
        return try read.withLock { read in
            if let error = read.error { throw error }
            return read.records
        }
    }

    static func record(_ row: any SQLRow) throws -> ExpenseRecord {
        let payers = try row.decode(column: "packed_payers", as: PackedRecords.self).map { fields in
            PayerRecord(memberID: try fields.uuid(), amount: try fields.int64())
        }
        let shares = try row.decode(column: "packed_shares", as: PackedRecords.self).map { fields in
            ShareRecord(
                id: try fields.uuid(), memberID: try fields.uuid(), amount: try fields.int64(),
                isPaid: try fields.bool(), paidAt: try fields.optionalInt64(), isRemoved: try fields.bool())
        }
        return try ExpenseRecord(row: row, payers: payers, shares: shares)
    }
}
