import Foundation
import SplitCore

/// Where a page read newest first goes on: after the line whose number (a time or a change
/// number) and id the previous page's cursor holds, `"<number>_<id>"`. The activity, the
/// notification inbox and a webhook's deliveries page this way.
enum PageCursor {
    /// The cursor's number and id; nil for the first page (no cursor, or an empty one).
    static func decode(_ cursor: String?) throws -> (Int64, UUID)? {
        guard let cursor, !cursor.isEmpty else { return nil }
        let parts = cursor.split(separator: "_")
        guard parts.count == 2, let number = Int64(parts[0]), let id = UUID(uuidString: String(parts[1])) else {
            throw AppError.invalid(field: "cursor", message: "cursor is not one this server gave out.")
        }
        return (number, id)
    }

    /// The cursor of the page after `lines`, when they fill the page (`limit` lines).
    static func next<Line>(after lines: [Line], limit: Int, _ key: (Line) -> (Int64, UUID)) -> String? {
        guard lines.count == limit, let last = lines.last else { return nil }
        let (number, id) = key(last)
        return "\(number)_\(id.text)"
    }
}
