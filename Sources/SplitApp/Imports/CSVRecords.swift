import Foundation

/// RFC 4180 records from text: fields separated by commas, quoted with `"` (a quote inside a
/// quoted field doubled), a quoted field may hold commas and line breaks; records end at LF, CRLF
/// or CR. Each record carries the line it starts on, so every refusal can name it.
struct CSVRecords {
    struct Record {
        /// 1-based line of the file where the record starts.
        let line: Int
        let fields: [String]
    }

    /// Why text is not CSV; `line` is where the fault is.
    struct Malformed: Error {
        let line: Int
        let message: String
    }

    /// Reads every record, in order. A byte-order mark at the start is dropped. Reading stops
    /// with a refusal past `maximumRecords` records or `maximumFields` fields in one record, so
    /// a hostile file costs bounded memory.
    static func read(_ text: String, maximumRecords: Int, maximumFields: Int) throws(Malformed) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field: [Unicode.Scalar] = []
        var line = 1
        var recordLine = 1
        var quoted = false
        var quoteOpenedOn = 1
        var fieldWasQuoted = false
        var scalars = text.unicodeScalars[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        var iterator = scalars.makeIterator()
        var pending: Unicode.Scalar? = nil

        var tooWide = false
        func endField() {
            if fields.count >= maximumFields {
                tooWide = true
                field.removeAll(keepingCapacity: true)
                return
            }
            var string = String()
            string.unicodeScalars.append(contentsOf: field)
            fields.append(string)
            field.removeAll(keepingCapacity: true)
            fieldWasQuoted = false
        }
        func endRecord() {
            endField()
            records.append(Record(line: recordLine, fields: fields))
            // A new array, not `removeAll(keepingCapacity:)`: the record shares this buffer, so
            // keeping the capacity would allocate one as large as the widest record for every
            // record after it (a wide header and 200,000 empty lines held over a gigabyte).
            fields = []
        }

        while let scalar = pending ?? iterator.next() {
            pending = nil
            if quoted {
                switch scalar {
                case "\"":
                    let next = iterator.next()
                    if next == "\"" {
                        field.append("\"")
                    } else {
                        quoted = false
                        pending = next
                    }
                case "\r":
                    let next = iterator.next()
                    if next != "\n" { pending = next }
                    field.append("\n")
                    line += 1
                case "\n":
                    field.append("\n")
                    line += 1
                default:
                    field.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"":
                // A quote opens a field only at its start; elsewhere it is refused (RFC 4180 §2.5).
                guard field.isEmpty, !fieldWasQuoted else {
                    throw Malformed(line: line, message: "a quote (\") in the middle of a field that is not quoted")
                }
                quoted = true
                fieldWasQuoted = true
                quoteOpenedOn = line
            case ",":
                endField()
                if tooWide {
                    throw Malformed(line: line, message: "more than \(maximumFields) fields on one line")
                }
            case "\r", "\n":
                if scalar == "\r" {
                    let next = iterator.next()
                    if next != "\n" { pending = next }
                }
                endRecord()
                if tooWide {
                    throw Malformed(line: line, message: "more than \(maximumFields) fields on one line")
                }
                if records.count > maximumRecords {
                    throw Malformed(line: line, message: "more than \(maximumRecords) lines; import the history in parts")
                }
                line += 1
                recordLine = line
            default:
                guard !fieldWasQuoted || scalar == " " || scalar == "\t" else {
                    throw Malformed(line: line, message: "text after the closing quote of a field")
                }
                if !fieldWasQuoted { field.append(scalar) }
            }
        }
        if quoted { throw Malformed(line: quoteOpenedOn, message: "a quoted field that is never closed") }
        if !field.isEmpty || !fields.isEmpty || fieldWasQuoted { endRecord() }
        if tooWide { throw Malformed(line: line, message: "more than \(maximumFields) fields on one line") }
        return records
    }
}
