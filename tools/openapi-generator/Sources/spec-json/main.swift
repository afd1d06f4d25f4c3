import Foundation
import Yams

// `spec-json IN.yaml OUT.json`: the same document as JSON, for the server to read at start-up
// with Foundation's JSON reader (RequestBodyLimits) instead of compiling and running a YAML
// reader. Keys are sorted and the output indented, so a change to the spec shows as a small diff.
// Scalars keep YAML's core-schema types (integers, floats, booleans, null); anything else, a
// date-like example included, stays the string it was written as.

func json(_ node: Node) throws -> Any {
    switch node {
    case .mapping(let mapping):
        var object: [String: Any] = [:]
        for (key, value) in mapping {
            guard let name = key.string else { throw Failure("a mapping key that is not a scalar: \(key)") }
            guard object.updateValue(try json(value), forKey: name) == nil else {
                throw Failure("the key \(name) twice in one mapping")
            }
        }
        return object
    case .sequence(let sequence):
        return try sequence.map(json)
    case .scalar(let scalar):
        switch Tag.Name(rawValue: node.tag.rawValue) {
        case .null: return NSNull()
        case .bool: return node.bool ?? scalar.string
        case .int: return node.int ?? scalar.string
        case .float:
            guard let value = node.float, value.isFinite else {
                throw Failure("a number JSON cannot hold: \(scalar.string)")
            }
            return value
        default: return scalar.string
        }
    case .alias:
        throw Failure("a YAML alias (the spec uses none)")
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: spec-json IN.yaml OUT.json\n".utf8))
    exit(2)
}
do {
    let text = try String(contentsOfFile: arguments[1], encoding: .utf8)
    guard let root = try Yams.compose(yaml: text) else { throw Failure("\(arguments[1]) is empty") }
    var data = try JSONSerialization.data(
        withJSONObject: try json(root), options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
    data.append(contentsOf: Array("\n".utf8))
    try data.write(to: URL(fileURLWithPath: arguments[2]))
} catch {
    FileHandle.standardError.write(Data("spec-json: \(error)\n".utf8))
    exit(1)
}
