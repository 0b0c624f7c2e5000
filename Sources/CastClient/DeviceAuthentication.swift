// SPDX-License-Identifier: GPL-3.0-or-later
// What device authentication (docs/protocol.md §8) found out about a device, and how a
// sender asks for it. The checks themselves are in DeviceAuthenticator.swift.
import Foundation

/// Whether the device proved that it is a genuine Cast device. Part of a session's state:
/// read `CastSession.authentication`, observe `CastSession.authenticationUpdates()`.
public enum DeviceAuthentication: Sendable, Equatable, CustomStringConvertible {
    /// No check was made: authentication is switched off, or no link was opened yet.
    case notChecked
    /// The challenge is out and the answer has not been judged yet.
    case checking
    /// The device signed our challenge with a key certified by a trusted Cast root.
    case verified(DeviceIdentity)
    /// The device did not prove its identity; it may still be used unless verification is required.
    case unverified(DeviceAuthFailure)

    /// True only for `.verified`.
    public var isVerified: Bool { if case .verified = self { true } else { false } }

    /// True once the outcome is known (verified or unverified).
    public var isSettled: Bool {
        switch self {
        case .verified, .unverified: true
        case .notChecked, .checking: false
        }
    }

    /// The device certificate's common name (e.g. "2ZZBG9 FA8FCA3EF91A") when verified.
    public var commonName: String? { if case .verified(let id) = self { id.commonName } else { nil } }

    /// A stable short code for scripts: nil when verified, else "not-checked", "checking",
    /// or the failure's `code` ("no-answer", "auth-error", "chain", "signature", "expired", …).
    public var reasonCode: String? {
        switch self {
        case .verified: nil
        case .notChecked: "not-checked"
        case .checking: "checking"
        case .unverified(let f): f.code
        }
    }

    /// One sentence for people: nil when verified.
    public var reason: String? {
        switch self {
        case .verified: nil
        case .notChecked: "not checked (device authentication is off or no connection was made)"
        case .checking: "the device has not answered the authentication challenge yet"
        case .unverified(let f): f.description
        }
    }

    public var description: String {
        switch self {
        case .verified(let id): "Verified device (\(id.commonName))"
        default: "Unverified device: \(reason ?? "")"
        }
    }
}

/// Who a verified device is, as its certificate chain says.
public struct DeviceIdentity: Sendable, Equatable, Hashable {
    /// The common name of the device certificate (model code and MAC-like serial on Google devices).
    public var commonName: String
    /// The common name of the trust anchor the chain ended at ("Cast Root CA", "Eureka Root CA", …).
    public var rootCommonName: String
    /// The chain carries the audio-only certificate policy (1.3.6.1.4.1.11129.2.5.2).
    public var audioOnly: Bool

    public init(commonName: String, rootCommonName: String, audioOnly: Bool) {
        self.commonName = commonName
        self.rootCommonName = rootCommonName
        self.audioOnly = audioOnly
    }
}

/// Why a device is unverified. `code` is stable; `description` says what it means.
public enum DeviceAuthFailure: Error, Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The device did not answer the challenge within the time limit (or closed the link first).
    case noAnswer(seconds: Double)
    /// The device answered with an AuthError (no credentials, algorithm unavailable, …).
    case authError(String)
    /// The answer could not be read or lacked a required part.
    case malformed(String)
    /// The TLS certificate the device presented breaks the rules senders enforce (§1.1).
    case tlsCertificate(String)
    /// A certificate of the chain is outside its validity period.
    case expired(String)
    /// The chain does not lead to a trusted Cast root.
    case untrustedChain(String)
    /// The signature over our nonce and the TLS certificate does not verify with the device key.
    case badSignature(String)
    /// The device echoed a nonce other than the one we sent (a replayed answer).
    case nonceMismatch
    /// The certificate allows audio only, but the device advertises video output.
    case audioOnlyDeviceWithVideo

    public var code: String {
        switch self {
        case .noAnswer: "no-answer"
        case .authError: "auth-error"
        case .malformed: "malformed"
        case .tlsCertificate: "tls-certificate"
        case .expired: "expired"
        case .untrustedChain: "chain"
        case .badSignature: "signature"
        case .nonceMismatch: "nonce"
        case .audioOnlyDeviceWithVideo: "audio-only"
        }
    }

    public var description: String {
        switch self {
        case .noAnswer(let s):
            "no answer to the authentication challenge within \(DisconnectReason.format(s)) s"
        case .authError(let e):
            "the device answered with AuthError \(e) (it has no Cast credentials)"
        case .malformed(let why):
            "the authentication answer could not be read: \(why)"
        case .tlsCertificate(let why):
            "the device's TLS certificate is not acceptable: \(why)"
        case .expired(let why):
            "expired certificate: \(why)"
        case .untrustedChain(let why):
            "the certificate chain does not lead to a trusted Cast root: \(why)"
        case .badSignature(let why):
            "bad signature: \(why)"
        case .nonceMismatch:
            "the device echoed a different nonce than the one sent (replayed answer)"
        case .audioOnlyDeviceWithVideo:
            "the certificate is for an audio-only device, but the device advertises video output"
        }
    }
}

/// How a sender treats device authentication. Part of `CastClientConfiguration`.
public struct DeviceAuthenticationPolicy: Sendable {
    public enum Mode: Sendable, Hashable {
        /// Send no challenge; the state stays `.notChecked`.
        case off
        /// Challenge every device and report the result, but use unverified devices too (the default:
        /// third-party and old devices may fail).
        case verify
        /// Refuse the connection (`CastClientError.deviceNotVerified`) unless the device verifies.
        case require
    }

    public var mode: Mode = .verify
    /// The roots to trust; nil = the shipped Cast roots plus `CASTDECK_EXTRA_CAST_ROOTS`.
    public var trustStore: CastTrustStore?
    /// How long to wait for the answer to the challenge.
    public var timeout: Duration = .seconds(5)
    /// The device's `ca` capability bits from discovery (bit 0 = video out), when known. An
    /// audio-only certificate on a device that advertises video fails verification.
    public var advertisedCapabilities: Int?

    public init(mode: Mode = .verify, trustStore: CastTrustStore? = nil, timeout: Duration = .seconds(5), advertisedCapabilities: Int? = nil) {
        self.mode = mode
        self.trustStore = trustStore
        self.timeout = timeout
        self.advertisedCapabilities = advertisedCapabilities
    }
}
