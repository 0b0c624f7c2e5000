import Foundation
import SwiftProtobuf

/// The payload of a Cast message: UTF-8 text (JSON on every Google namespace) or bytes.
public enum CastPayload: Sendable, Hashable {
    case string(String)
    case binary([UInt8])
}

/// One CASTV2 message: the envelope of every exchange between a sender and a receiver.
///
/// This is the Swift face of the `CastMessage` protobuf. Encoding follows proto2 rules,
/// so the required `protocol_version` and `payload_type` are written even when they are 0,
/// as Chromium-derived receivers insist.
public struct CastMessage: Sendable, Hashable {
    /// `CASTV2_1_0` (0) is what every sender and receiver sends.
    public var protocolVersion: Int
    public var sourceID: String
    public var destinationID: String
    public var namespace: String
    public var payload: CastPayload

    public init(
        protocolVersion: Int = 0, sourceID: String, destinationID: String, namespace: String,
        payload: CastPayload
    ) {
        self.protocolVersion = protocolVersion
        self.sourceID = sourceID
        self.destinationID = destinationID
        self.namespace = namespace
        self.payload = payload
    }

    /// A text message (JSON on Google namespaces).
    public init(source: String, destination: String, namespace: String, utf8: String) {
        self.init(sourceID: source, destinationID: destination, namespace: namespace, payload: .string(utf8))
    }

    /// The text payload, or nil for a binary message.
    public var utf8: String? {
        if case .string(let s) = payload { return s }
        return nil
    }

    /// Serializes the protobuf body (without the 4-byte length).
    public func serializedBody() -> [UInt8] {
        var m = ProtoCastMessage()
        m.protocolVersion = ProtoCastMessage.ProtocolVersion(rawValue: protocolVersion) ?? .castv210
        m.sourceID = sourceID
        m.destinationID = destinationID
        m.namespace = namespace
        switch payload {
        case .string(let s):
            m.payloadType = .string
            m.payloadUtf8 = s
        case .binary(let b):
            m.payloadType = .binary
            m.payloadBinary = Data(b)
        }
        // Every required field is set above, so serialization cannot fail.
        return (try? m.serializedBytes()) ?? []
    }

    /// Parses and validates a protobuf body as Chromium does: all required fields present,
    /// source, destination and namespace non-empty, and the payload field matching its type.
    public init(serializedBody body: some Collection<UInt8>) throws(CastProtocolError) {
        let m: ProtoCastMessage
        do {
            m = try ProtoCastMessage(serializedBytes: Array(body))
        } catch {
            throw .malformedMessage(reason: Self.describe(error))
        }
        guard !m.sourceID.isEmpty else { throw .missingField("source id") }
        guard !m.destinationID.isEmpty else { throw .missingField("destination id") }
        guard !m.namespace.isEmpty else { throw .missingField("namespace") }
        switch m.payloadType {
        case .string:
            guard m.hasPayloadUtf8 else { throw .payloadMismatch(expected: "text") }
            payload = .string(m.payloadUtf8)
        case .binary:
            guard m.hasPayloadBinary else { throw .payloadMismatch(expected: "binary") }
            payload = .binary(Array(m.payloadBinary))
        }
        protocolVersion = m.protocolVersion.rawValue
        sourceID = m.sourceID
        destinationID = m.destinationID
        namespace = m.namespace
    }

    /// The whole frame: 4-byte big-endian length followed by the body.
    public func framed() throws(CastProtocolError) -> [UInt8] {
        try CastFraming.frame(serializedBody())
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case BinaryDecodingError.missingRequiredFields: "a required field is missing"
        case BinaryDecodingError.truncated: "the protobuf body is truncated"
        case BinaryDecodingError.malformedProtobuf: "the protobuf body is malformed"
        case BinaryDecodingError.invalidUTF8: "a text field is not valid UTF-8"
        default: "the protobuf body is invalid (\(error))"
        }
    }
}

extension CastMessage: CustomStringConvertible {
    public var description: String {
        let body: String
        switch payload {
        case .string(let s): body = s
        case .binary(let b): body = "<\(b.count) bytes>"
        }
        return "\(sourceID) → \(destinationID) [\(namespace)] \(body)"
    }
}
