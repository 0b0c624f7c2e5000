// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import Foundation

/// A JSON message family of one namespace, discriminated by its `type` field.
public protocol CastJSONMessage: Codable, Hashable, Sendable {
    /// The namespace the family travels on.
    static var namespace: CastNamespace { get }
}

/// JSON encoding and decoding of payloads, with errors a person can read.
public enum CastJSON {
    /// Decodes a payload of `namespace` into `T`, or explains what is wrong with it.
    public static func decode<T: Decodable>(_ type: T.Type, from text: String, namespace: String) throws(CastProtocolError) -> T {
        try decode(type, fromUTF8: text.utf8, namespace: namespace)
    }

    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, namespace: String) throws(CastProtocolError) -> T {
        try decode(type, fromUTF8: Array(data), namespace: namespace)
    }

    /// Decodes UTF-8 JSON bytes with CastProtocol's own strict parser.
    public static func decode<T: Decodable>(_ type: T.Type, fromUTF8 bytes: some Collection<UInt8>, namespace: String) throws(CastProtocolError) -> T {
        if T.self == MediaMessage.self, let message = readMediaStatus(bytes) { return message as! T }
        return try decodeThroughTree(type, fromUTF8: bytes, namespace: namespace)
    }

    /// MEDIA_STATUS, the answer to every media command, read in one pass from the bytes
    /// (JSONParser+Reading.swift); nil for any other message and for anything the reader
    /// leaves to the tree, which then decodes it or says what is wrong.
    @_spi(Reference) public static func readMediaStatus(_ bytes: some Collection<UInt8>) -> MediaMessage? {
        bytes.withContiguousStorageIfAvailable { buffer -> MediaMessage? in
            var p = JSONParser(bytes: buffer)
            defer { p.finish() }
            guard let message = try? MediaMessage.readStatus(&p) else { return nil }
            p.skipWhitespace()
            return p.index == buffer.count ? message : nil
        } ?? nil
    }

    /// Parses the bytes into a tree, then maps the tree onto `T` through Codable.
    @_spi(Reference) public static func decodeThroughTree<T: Decodable>(
        _ type: T.Type, fromUTF8 bytes: some Collection<UInt8>, namespace: String
    ) throws(CastProtocolError) -> T {
        let tree: JSONValue
        do {
            tree = try JSONValue(parsing: bytes)
        } catch {
            if case .invalidJSON(_, let reason) = error { throw .invalidJSON(namespace: namespace, reason: reason) }
            throw error
        }
        do {
            return try unbox(tree, as: T.self, path: [])
        } catch let error as DecodingError {
            throw .invalidJSON(namespace: namespace, reason: describe(error))
        } catch let error as CastProtocolError {
            throw error
        } catch {
            throw .invalidJSON(namespace: namespace, reason: "\(error)")
        }
    }

    /// Compact JSON with sorted keys and unescaped slashes, so output is stable and URLs stay readable.
    public static func encode<T: Encodable>(_ value: T) -> String {
        // The media status and the common commands have direct writers (JSONWriter+Models.swift).
        if T.self == MediaMessage.self, let text = try? CastJSONWriter.encodeDirectly(unsafeBitCast(value, to: MediaMessage.self)) {
            return text
        }
        if let text = try? CastJSONWriter.encode(value) { return text }
        return encodeWithFoundation(value)
    }

    /// The same through the generic Codable writer only (what the direct writers are held to).
    @_spi(Reference) public static func encodeThroughCodable<T: Encodable>(_ value: T) -> String? {
        try? CastJSONWriter.encode(value)
    }

    /// The same through Foundation's `JSONEncoder`: the reference `CastJSONWriter` is held
    /// to, and the way for values it leaves aside.
    @_spi(Reference) public static func encodeWithFoundation<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every model here encodes only strings, numbers, booleans, arrays and objects;
        // a non-finite Double is the one value JSON cannot hold, so it is written as null.
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.isEmpty ? "the message" : "“\(pathText(context.codingPath))”"
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = context.codingPath.isEmpty ? "" : " in \(path(context))"
            return "the field “\(key.stringValue)” is missing\(parent)"
        case .typeMismatch(let type, let context):
            if context.codingPath.isEmpty { return "the payload is not a JSON object" }
            return "\(path(context)) is not \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context)) is null where \(typeName(type)) is expected"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return context.underlyingError != nil || context.debugDescription.contains("valid JSON")
                    ? "the payload is not valid JSON" : "the payload is invalid: \(context.debugDescription)"
            }
            return "\(path(context)) is invalid: \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default:
            String(describing: type).hasPrefix("Array")
                ? "an array"
                : String(describing: type).hasPrefix("Dictionary") || String(describing: type).hasPrefix("KeyedDecoding")
                    ? "an object" : "a \(type)"
        }
    }
}

/// The discriminator every JSON message carries.
enum TypeKey: String, CodingKey {
    case type
    case responseType
}

func readType(_ decoder: any Decoder) throws -> String {
    let c: KeyedDecodingContainer<TypeKey>
    do {
        c = try decoder.container(keyedBy: TypeKey.self)
    } catch {
        throw DecodingError.typeMismatch(
            [String: Any].self, .init(codingPath: [], debugDescription: "the payload is not a JSON object"))
    }
    // Some receiver apps (Pandora's, for one) name the message in `responseType` and send no `type`.
    guard let type = try c.decodeIfPresent(String.self, forKey: .type) ?? c.decodeIfPresent(String.self, forKey: .responseType) else {
        throw DecodingError.keyNotFound(TypeKey.type, .init(codingPath: [], debugDescription: "no type"))
    }
    return type
}

func write(_ type: String, _ body: some Encodable, to encoder: any Encoder) throws {
    try body.encode(to: encoder)
    var c = encoder.container(keyedBy: TypeKey.self)
    try c.encode(type, forKey: .type)
}

struct Empty: Codable {}

// MARK: - envelopes

/// A received message, decoded according to its namespace.
public enum NamespacedMessage: Hashable, Sendable {
    case connection(ConnectionMessage)
    case heartbeat(HeartbeatMessage)
    case receiver(ReceiverMessage)
    case media(MediaMessage)
    /// Device authentication carries a protobuf `DeviceAuthMessage`.
    case deviceAuth([UInt8])
    /// A speaker group's membership (Models/Multizone.swift).
    case multizone(MultizoneMessage)
    /// App-defined channels: the payload as it came.
    case custom(namespace: String, payload: CastPayload)
}

extension CastMessage {
    /// A text message carrying one JSON message of a namespace family.
    public init<M: CastJSONMessage>(source: String, destination: String, _ message: M) {
        // The direct writers' bytes go into the envelope as they are: no String in between.
        if M.self == MediaMessage.self,
            let bytes = try? CastJSONWriter.encodeDirectlyToBytes(unsafeBitCast(message, to: MediaMessage.self))
        {
            self.init(source: source, destination: destination, namespace: M.namespace.urn, validUTF8: bytes)
            return
        }
        self.init(source: source, destination: destination, namespace: M.namespace.urn, utf8: CastJSON.encode(message))
    }

    /// Decodes the payload according to the namespace. Google's JSON namespaces must carry
    /// a JSON object with a `type`; anything else is an `invalidJSON` error naming the problem.
    public func decoded() throws(CastProtocolError) -> NamespacedMessage {
        var dropped: [DroppedPart] = []
        return try decoded(dropped: &dropped)
    }

    /// The same, also saying which parts of the payload were left out because they could not
    /// be read (the rest is used; protocol.md §17).
    public func decoded(dropped: inout [DroppedPart]) throws(CastProtocolError) -> NamespacedMessage {
        let ns = CastNamespace(urn: namespace)
        func json<M: CastJSONMessage>(_: M.Type) throws(CastProtocolError) -> M {
            // A received payload is read straight from its bytes: no String is made of it.
            switch body {
            case .utf8Text(let bytes): return try CastJSON.decode(M.self, fromUTF8: bytes, namespace: namespace, dropped: &dropped)
            case .payload(.string(let text)): return try CastJSON.decode(M.self, fromUTF8: text.utf8, namespace: namespace, dropped: &dropped)
            case .payload(.binary): throw .unexpectedPayloadType(namespace: namespace)
            }
        }
        switch ns {
        case .connection: return .connection(try json(ConnectionMessage.self))
        case .heartbeat: return .heartbeat(try json(HeartbeatMessage.self))
        case .receiver: return .receiver(try json(ReceiverMessage.self))
        case .media: return .media(try json(MediaMessage.self))
        case .deviceAuth:
            guard case .binary(let bytes) = payload else { throw .unexpectedPayloadType(namespace: namespace) }
            return .deviceAuth(bytes)
        case .multizone: return .multizone(try json(MultizoneMessage.self))
        case .custom: return .custom(namespace: namespace, payload: payload)
        }
    }
}
