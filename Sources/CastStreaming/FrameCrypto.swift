// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Crypto
import Foundation
import _CryptoExtras

/// Cast Streaming's frame encryption: each whole frame (before it is cut into packets) is
/// AES-128 in counter mode under the OFFER's `aesKey`; the initial counter block is the
/// OFFER's `aesIvMask` with the frame id's low 32 bits, big endian, XORed into bytes 8 to 11.
/// Counter mode is its own inverse, so `crypt` both encrypts and decrypts.
public struct FrameCrypto: Sendable {
    private let key: [UInt8]
    private let ivMask: [UInt8]

    public init(key: [UInt8], ivMask: [UInt8]) throws(CastStreamingError) {
        guard key.count == 16, ivMask.count == 16 else { throw CastStreamingError("the AES key and IV mask must be 16 bytes each") }
        self.key = key
        self.ivMask = ivMask
    }

    /// The counter block for `frameID`.
    public func nonce(frameID: UInt32) -> [UInt8] {
        var n = ivMask
        n[8] ^= UInt8(truncatingIfNeeded: frameID >> 24)
        n[9] ^= UInt8(truncatingIfNeeded: frameID >> 16)
        n[10] ^= UInt8(truncatingIfNeeded: frameID >> 8)
        n[11] ^= UInt8(truncatingIfNeeded: frameID)
        return n
    }

    public func crypt(_ data: [UInt8], frameID: UInt32) -> [UInt8] {
        guard !data.isEmpty else { return [] }
        // Neither call can fail: the nonce is 16 bytes and the key 128 bits (checked in init).
        guard let nonce = try? AES._CTR.Nonce(nonceBytes: nonce(frameID: frameID)),
            let out = try? AES._CTR.encrypt(data, using: SymmetricKey(data: key), nonce: nonce)
        else { preconditionFailure("AES-CTR with a checked key and nonce failed") }
        return [UInt8](out)
    }

    /// 16 random bytes for a new key or IV mask.
    public static func randomBytes() -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: 0...255, using: &g) }
    }
}
