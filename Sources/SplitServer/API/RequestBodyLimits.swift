import Foundation
import HTTPTypes
import OpenAPIRuntime
import SplitApp

/// The one validation layer for API request bodies: every bound openapi.yaml states for a
/// request body — `maxLength` (Unicode scalars, as the spec counts them), `maxItems`/`minItems`,
/// `maximum`/`minimum` — is checked here for every operation before the generated decoder runs,
/// so no handler can forget one and a new operation is bounded by writing its schema. The
/// generated types do not enforce these keywords themselves.
///
/// What is left to others, on purpose: the shape (types, required fields, enums) to the
/// generated decoder (a 400, as before), and what a value means (a currency that exists, a
/// member of the group, a password long enough) to the use cases, which answer 422 in their own
/// words. `oneOf`/`anyOf` are not used in request bodies; `compile` refuses them.
struct RequestBodyLimits: Sendable {
    /// One schema, its children by index into `nodes` (schemas refer to themselves: an item of an
    /// itemized split has a split).
    struct Node: Sendable {
        var maxLength: Int?
        var maxItems: Int?
        var minItems: Int?
        var minimum: Double?
        var maximum: Double?
        var properties: [String: Int] = [:]
        var items: Int?
        var allOf: [Int] = []
        /// A string, array or number with no upper bound (`unbounded` lists them).
        var isUnbounded = false
    }

    enum CompileError: Error, CustomStringConvertible {
        case unreadable(String)
        var description: String {
            switch self {
            case .unreadable(let why): "openapi.json: \(why)"
            }
        }
    }

    private(set) var nodes: [Node] = []
    /// The request body schema of each operation that takes JSON.
    private(set) var operations: [String: Int] = [:]
    /// Places in request bodies where the spec gives a string, array or number no upper bound,
    /// as `operationId: path` (a test keeps this empty).
    private(set) var unbounded: [String] = []

    /// The longest strings that `format` already bounds (a uuid, a date, a timestamp).
    private static let formatLengths: [String: Int] = ["uuid": 36, "date": 10, "date-time": 64]

    /// The bounds of the spec the server was built with, from `API/openapi.json`: the same
    /// document as openapi.yaml, written by scripts/generate-api and checked against it by
    /// scripts/check-api-generated. (Reading the YAML itself took 40 % of a debug server's start.)
    static func ofBundledSpecification() throws -> RequestBodyLimits {
        try RequestBodyLimits(root: try bundledSpecification())
    }

    /// `API/openapi.json`, parsed.
    static func bundledSpecification() throws -> [AnyHashable: Any] {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json") else {
            throw CompileError.unreadable("not among the server's resources")
        }
        let root = try JSONSerialization.jsonObject(with: try Data(contentsOf: url))
        guard let root = root as? [AnyHashable: Any] else { throw CompileError.unreadable("not a JSON object") }
        return root
    }

    init(root: [AnyHashable: Any]) throws {
        guard let paths = root["paths"] as? [AnyHashable: Any] else { throw CompileError.unreadable("no paths") }
        let components = (root["components"] as? [AnyHashable: Any])?["schemas"] as? [AnyHashable: Any] ?? [:]
        var compiler = Compiler(components: components)
        for case (_, let item as [AnyHashable: Any]) in paths {
            for case (_, let operation as [AnyHashable: Any]) in item {
                guard let id = operation["operationId"] as? String,
                    let body = operation["requestBody"] as? [AnyHashable: Any],
                    let content = body["content"] as? [AnyHashable: Any],
                    let json = content["application/json"] as? [AnyHashable: Any],
                    let schema = json["schema"] as? [AnyHashable: Any]
                else { continue }
                operations[id] = try compiler.compile(schema)
                unbounded += compiler.unboundedPlaces(from: operations[id]!).map { "\(id): \($0)" }
            }
        }
        nodes = compiler.nodes
        unbounded.sort()
    }

    /// Throws `AppError.invalid` naming the first value past a bound (e.g.
    /// `split.items[0].description`); returns quietly for bodies that are not JSON or do not have
    /// the schema's shape (the decoder answers those).
    func check(_ body: [UInt8], operation: String) throws {
        guard let root = operations[operation],
            let value = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])
        else { return }
        try check(value, node: root, path: "")
    }

    private func check(_ value: Any, node index: Int, path: String) throws {
        let node = nodes[index]
        for part in node.allOf { try check(value, node: part, path: path) }
        func field() -> String { path.isEmpty ? "body" : path }
        switch value {
        case let text as String:
            if let maxLength = node.maxLength, text.unicodeScalars.count > maxLength {
                throw AppError.invalid(
                    field: field(), message: "\(field()) is longer than \(maxLength) characters.")
            }
        case let array as [Any]:
            if let maxItems = node.maxItems, array.count > maxItems {
                throw AppError.invalid(field: field(), message: "\(field()) has more than \(maxItems) entries.")
            }
            if let minItems = node.minItems, array.count < minItems {
                throw AppError.invalid(field: field(), message: "\(field()) needs at least \(minItems) entries.")
            }
            if let items = node.items {
                for (offset, element) in array.enumerated() {
                    try check(element, node: items, path: "\(path)[\(offset)]")
                }
            }
        case let object as [String: Any]:
            for (key, child) in node.properties {
                guard let element = object[key] else { continue }
                try check(element, node: child, path: path.isEmpty ? key : "\(path).\(key)")
            }
        case let number as NSNumber:
            try checkRange(number.doubleValue, node: node, field: field())
        case let number as Int:
            try checkRange(Double(number), node: node, field: field())
        case let number as Double:
            try checkRange(number, node: node, field: field())
        default:
            return
        }
    }

    private func checkRange(_ double: Double, node: Node, field: String) throws {
        if let maximum = node.maximum, double > maximum {
            throw AppError.invalid(field: field, message: "\(field) is more than \(Self.text(maximum)).")
        }
        if let minimum = node.minimum, double < minimum {
            throw AppError.invalid(field: field, message: "\(field) is less than \(Self.text(minimum)).")
        }
    }

    private static func text(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e18 ? String(Int64(number)) : String(number)
    }

    /// Turns the spec's schemas into `nodes`, each `$ref` once.
    private struct Compiler {
        let components: [AnyHashable: Any]
        var nodes: [Node] = []
        var references: [String: Int] = [:]

        mutating func compile(_ schema: [AnyHashable: Any]) throws -> Int {
            if let reference = schema["$ref"] as? String {
                if let known = references[reference] { return known }
                let name = String(reference.split(separator: "/").last ?? "")
                guard reference.hasPrefix("#/components/schemas/"),
                    let target = components[name] as? [AnyHashable: Any]
                else { throw CompileError.unreadable("unknown reference \(reference)") }
                let index = nodes.count
                nodes.append(Node())
                references[reference] = index
                nodes[index] = try node(target)
                return index
            }
            let built = try node(schema)
            nodes.append(built)
            return nodes.count - 1
        }

        private mutating func node(_ schema: [AnyHashable: Any]) throws -> Node {
            if schema["oneOf"] != nil || schema["anyOf"] != nil {
                throw CompileError.unreadable("oneOf/anyOf in a request body cannot be bounded here")
            }
            var node = Node()
            let types: Set<String> =
                if let one = schema["type"] as? String { [one] } else { Set(schema["type"] as? [String] ?? []) }
            node.maxItems = schema["maxItems"] as? Int
            node.minItems = schema["minItems"] as? Int
            node.minimum = Self.number(schema["minimum"])
            node.maximum = Self.number(schema["maximum"])
            node.maxLength = schema["maxLength"] as? Int
            if node.maxLength == nil, let format = schema["format"] as? String {
                node.maxLength = formatLengths[format]
            }
            if let items = schema["items"] as? [AnyHashable: Any] {
                node.items = try compile(items)
            }
            for case (let key as String, let property as [AnyHashable: Any]) in schema["properties"]
                as? [AnyHashable: Any]
                ?? [:]
            {
                node.properties[key] = try compile(property)
            }
            for case let part as [AnyHashable: Any] in schema["allOf"] as? [Any] ?? [] {
                node.allOf.append(try compile(part))
            }
            let hasEnum = schema["enum"] != nil || schema["const"] != nil
            node.isUnbounded =
                (types.contains("string") && node.maxLength == nil && !hasEnum)
                || (types.contains("array") && node.maxItems == nil)
                || ((types.contains("integer") || types.contains("number")) && node.maximum == nil && !hasEnum)
            return node
        }

        private static func number(_ value: Any?) -> Double? {
            switch value {
            case let int as Int: Double(int)
            case let double as Double: double
            default: nil
            }
        }

        /// Every unbounded place reachable from `root`, by path.
        func unboundedPlaces(from root: Int) -> [String] {
            var found: [String] = []
            var visited: Set<Int> = []
            func walk(_ index: Int, _ path: String) {
                guard visited.insert(index).inserted else { return }
                let node = nodes[index]
                if node.isUnbounded { found.append(path.isEmpty ? "body" : path) }
                for (key, child) in node.properties { walk(child, path.isEmpty ? key : "\(path).\(key)") }
                if let items = node.items { walk(items, "\(path)[]") }
                for part in node.allOf { walk(part, path) }
            }
            walk(root, "")
            return found
        }
    }
}

/// Runs `RequestBodyLimits` on every operation's body before it is decoded.
struct RequestBodyLimitsMiddleware: ServerMiddleware {
    let limits: RequestBodyLimits
    /// Bodies were already cut at this size by `RequestBodyMiddleware`; collected again here.
    let maxBodyBytes: Int

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        // An import's body is a CSV file (and larger than any JSON body); it has its own checks.
        let isJSON = request.headerFields[.contentType]?.lowercased().hasPrefix("application/json") ?? true
        guard let body, limits.operations[operationID] != nil, isJSON else {
            return try await next(request, body, metadata)
        }
        let bytes = try await [UInt8](collecting: body, upTo: maxBodyBytes)
        try limits.check(bytes, operation: operationID)
        return try await next(request, HTTPBody(bytes), metadata)
    }
}
