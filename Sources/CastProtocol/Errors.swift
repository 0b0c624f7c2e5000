// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
/// Everything that can be wrong with bytes or JSON received from a Cast peer.
///
/// Each case carries what a person needs to understand the problem; `description`
/// says it in a sentence.
public enum CastProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The 4-byte header announced a body larger than the protocol allows (65,536 bytes).
    case frameTooLarge(length: UInt32)
    /// The 4-byte header announced a body of zero bytes, which no valid CastMessage has.
    case emptyFrame
    /// The stream ended in the middle of a frame.
    case truncatedFrame(expected: Int, received: Int)
    /// The body is not a valid CastMessage protobuf.
    case malformedMessage(reason: String)
    /// A required CastMessage field is absent or empty (source, destination, namespace).
    case missingField(String)
    /// `payload_type` says STRING but there is no UTF-8 payload, or BINARY without bytes.
    case payloadMismatch(expected: String)
    /// A message to send is larger than a frame may be.
    case messageTooLarge(bytes: Int)
    /// The payload is not JSON, or not the JSON this namespace expects.
    case invalidJSON(namespace: String, reason: String)
    /// A JSON payload arrived as BINARY, or a binary one as STRING.
    case unexpectedPayloadType(namespace: String)
    /// A custom namespace that does not follow `urn:x-cast:<name>` (at most 128 characters).
    case invalidNamespace(String)

    public var description: String {
        switch self {
        case .frameTooLarge(let length):
            "A Cast frame announced \(length) bytes, more than the 65,536 the protocol allows; the stream is corrupt."
        case .emptyFrame:
            "A Cast frame announced an empty body, which no valid message has; the stream is corrupt."
        case .truncatedFrame(let expected, let received):
            "The connection ended in the middle of a Cast message (\(received) of \(expected) bytes)."
        case .malformedMessage(let reason):
            "A Cast message could not be read: \(reason)."
        case .missingField(let field):
            "A Cast message has no \(field), which every message must carry."
        case .payloadMismatch(let expected):
            "A Cast message says its payload is \(expected) but does not carry one."
        case .messageTooLarge(let bytes):
            "A message of \(bytes) bytes is larger than the 65,536 bytes a Cast frame can carry."
        case .invalidJSON(let namespace, let reason):
            "A message on \(namespace) is not valid: \(reason)."
        case .unexpectedPayloadType(let namespace):
            "A message on \(namespace) has the wrong payload type (JSON must be sent as text)."
        case .invalidNamespace(let ns):
            "“\(ns)” is not a valid Cast namespace: it must start with “urn:x-cast:”, have a name after it, and be at most 128 characters."
        }
    }
}
