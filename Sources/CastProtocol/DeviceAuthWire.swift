// SPDX-License-Identifier: GPL-3.0-or-later
// The binary payloads of urn:x-cast:com.google.cast.tp.deviceauth (docs/protocol.md §8),
// shared by the sender's check and the simulator's answers.
import Foundation
import SwiftProtobuf

public enum DeviceAuthWire {
    /// Size of the sender nonce Chromium and Open Screen send.
    public static let nonceLength = 16

    /// A `DeviceAuthMessage{challenge{sender_nonce, hash_algorithm, signature_algorithm = PKCS#1 v1.5}}`.
    public static func challenge(nonce: [UInt8], hash: ProtoHashAlgorithm = .sha256) -> [UInt8] {
        var challenge = ProtoAuthChallenge()
        challenge.senderNonce = Data(nonce)
        challenge.hashAlgorithm = hash
        challenge.signatureAlgorithm = .rsassaPkcs1V15
        var message = ProtoDeviceAuthMessage()
        message.challenge = challenge
        return encode(message)
    }

    /// A `DeviceAuthMessage{error{error_type}}`.
    public static func error(_ type: ProtoAuthError.ErrorType) -> [UInt8] {
        var error = ProtoAuthError()
        error.errorType = type
        var message = ProtoDeviceAuthMessage()
        message.error = error
        return encode(message)
    }

    public static func encode(_ message: ProtoDeviceAuthMessage) -> [UInt8] {
        // Only fails for unset required fields, which callers always fill; partial output is still sent.
        (try? message.serializedBytes()) ?? (try? message.serializedBytes(partial: true)) ?? []
    }

    /// Parses a DeviceAuthMessage; required fields of a present response or error must be set.
    public static func decode(_ bytes: [UInt8]) throws(CastProtocolError) -> ProtoDeviceAuthMessage {
        do {
            return try ProtoDeviceAuthMessage(serializedBytes: bytes)
        } catch {
            throw .malformedMessage(reason: "DeviceAuthMessage: \(error)")
        }
    }
}
