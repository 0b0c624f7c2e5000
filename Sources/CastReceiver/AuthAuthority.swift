// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// Test credentials that let the simulator answer deviceauth challenges like a real device
// (docs/protocol.md §8): a test root, an intermediate and a device certificate with its RSA
// key, plus the wrong chains the fault flags send. Nothing here chains to Google's roots; a
// sender trusts root.pem only when told to (CASTDECK_EXTRA_CAST_ROOTS).
import Crypto
import Foundation
import SwiftASN1
import X509
import _CryptoExtras

/// A certificate authority for simulated devices, kept in a directory so that every run (and
/// the sender under test) sees the same root.
///
/// Files in the directory: `root.pem` (the anchor to trust), `intermediate.pem`, `device.pem`,
/// their `*-key.pem` keys, `device-expired.pem` (same key, past its dates) and
/// `untrusted-root.pem` with `device-untrusted.pem` (same key, certified by a root no sender trusts).
public struct AuthAuthority: Sendable {
    public static let deviceCommonName = "CastDeck Simulated Device"
    static let files = [
        "root.pem", "root-key.pem", "intermediate.pem", "intermediate-key.pem", "device.pem", "device-key.pem",
        "device-expired.pem", "untrusted-root.pem", "untrusted-root-key.pem", "device-untrusted.pem",
    ]

    /// The directory the credentials live in.
    public let directory: String
    /// The test root a sender must be told to trust.
    public var rootPath: String { (directory as NSString).appendingPathComponent("root.pem") }

    let deviceKey: _RSA.Signing.PrivateKey
    /// Device certificate first, then the intermediate (DER).
    let chain: [[UInt8]]
    let expiredChain: [[UInt8]]
    let untrustedChain: [[UInt8]]

    /// Reads the credentials in `directory`, or creates them (and the directory) when any file is missing.
    public static func loadOrCreate(directory: String) throws(CastReceiverError) -> AuthAuthority {
        let fm = FileManager.default
        let missing = files.contains { !fm.fileExists(atPath: (directory as NSString).appendingPathComponent($0)) }
        do {
            if missing { try create(in: directory) }
            return try load(from: directory)
        } catch let e as CastReceiverError {
            throw e
        } catch {
            throw .authSetupFailed(directory: directory, reason: "\(error)")
        }
    }

    private static func load(from directory: String) throws -> AuthAuthority {
        func text(_ name: String) throws -> String {
            try String(contentsOfFile: (directory as NSString).appendingPathComponent(name), encoding: .utf8)
        }
        func der(_ name: String) throws -> [UInt8] {
            let cert = try Certificate(pemEncoded: try text(name))
            var s = DER.Serializer()
            try s.serialize(cert)
            return s.serializedBytes
        }
        let key = try _RSA.Signing.PrivateKey(pemRepresentation: try text("device-key.pem"))
        let intermediate = try der("intermediate.pem")
        return AuthAuthority(
            directory: directory, deviceKey: key,
            chain: [try der("device.pem"), intermediate],
            expiredChain: [try der("device-expired.pem"), intermediate],
            untrustedChain: [try der("device-untrusted.pem")])
    }

    private static func create(in directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let now = Date()
        let year: TimeInterval = 365 * 24 * 3600
        let rootKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let icaKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let deviceKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let rogueKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let rootName = try DistinguishedName {
            OrganizationName("CastDeck tests")
            CommonName("CastDeck Test Root CA")
        }
        let icaName = try DistinguishedName {
            OrganizationName("CastDeck tests")
            CommonName("CastDeck Test ICA")
        }
        let rogueName = try DistinguishedName {
            OrganizationName("Not Google")
            CommonName("Untrusted Test Root CA")
        }
        let deviceName = try DistinguishedName {
            OrganizationName("CastDeck tests")
            CommonName(deviceCommonName)
        }

        func authority(_ key: _RSA.Signing.PrivateKey, _ name: DistinguishedName, pathLength: Int) throws -> Certificate {
            try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
                notValidBefore: now - 3600, notValidAfter: now + 20 * year, issuer: name, subject: name,
                signatureAlgorithm: .sha256WithRSAEncryption,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: pathLength))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                },
                issuerPrivateKey: .init(key))
        }
        func issued(
            _ subjectKey: _RSA.Signing.PrivateKey, _ subject: DistinguishedName, by issuerKey: _RSA.Signing.PrivateKey,
            _ issuer: DistinguishedName, from: Date, until: Date, ca: Bool
        ) throws -> Certificate {
            try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(subjectKey.publicKey),
                notValidBefore: from, notValidAfter: until, issuer: issuer, subject: subject,
                signatureAlgorithm: .sha256WithRSAEncryption,
                extensions: try Certificate.Extensions {
                    if ca {
                        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                        Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                    } else {
                        Critical(BasicConstraints.notCertificateAuthority)
                        Critical(KeyUsage(digitalSignature: true))
                        try ExtendedKeyUsage([.clientAuth])
                    }
                },
                issuerPrivateKey: .init(issuerKey))
        }
        let root = try authority(rootKey, rootName, pathLength: 2)
        let rogue = try authority(rogueKey, rogueName, pathLength: 2)
        let ica = try issued(icaKey, icaName, by: rootKey, rootName, from: now - 3600, until: now + 10 * year, ca: true)
        let device = try issued(deviceKey, deviceName, by: icaKey, icaName, from: now - 3600, until: now + 5 * year, ca: false)
        let expired = try issued(deviceKey, deviceName, by: icaKey, icaName, from: now - 30 * 86400, until: now - 86400, ca: false)
        let untrusted = try issued(deviceKey, deviceName, by: rogueKey, rogueName, from: now - 3600, until: now + 5 * year, ca: false)

        func write(_ text: String, _ name: String) throws {
            try text.write(toFile: (directory as NSString).appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try write(try root.serializeAsPEM().pemString + "\n", "root.pem")
        try write(rootKey.pemRepresentation + "\n", "root-key.pem")
        try write(try ica.serializeAsPEM().pemString + "\n", "intermediate.pem")
        try write(icaKey.pemRepresentation + "\n", "intermediate-key.pem")
        try write(try device.serializeAsPEM().pemString + "\n", "device.pem")
        try write(deviceKey.pemRepresentation + "\n", "device-key.pem")
        try write(try expired.serializeAsPEM().pemString + "\n", "device-expired.pem")
        try write(try rogue.serializeAsPEM().pemString + "\n", "untrusted-root.pem")
        try write(rogueKey.pemRepresentation + "\n", "untrusted-root-key.pem")
        try write(try untrusted.serializeAsPEM().pemString + "\n", "device-untrusted.pem")
    }

    /// RSA PKCS#1 v1.5 signature with the device key, as a device makes over `nonce || TLS cert DER`.
    func sign(_ data: [UInt8], sha256: Bool) throws -> [UInt8] {
        let signature =
            sha256
            ? try deviceKey.signature(for: SHA256.hash(data: data), padding: .insecurePKCS1v1_5)
            : try deviceKey.signature(for: Insecure.SHA1.hash(data: data), padding: .insecurePKCS1v1_5)
        return [UInt8](signature.rawRepresentation)
    }
}

/// The ways the simulator can answer a challenge wrongly, one per failure a sender must catch.
public enum AuthFault: String, Sendable, CaseIterable, Hashable {
    /// A signature that does not verify (one byte flipped).
    case badSignature = "bad-signature"
    /// Echo a different nonce (and sign that one), like a replayed answer.
    case wrongNonce = "wrong-nonce"
    /// A device certificate past its validity period.
    case expired
    /// A device certificate from a root no sender trusts.
    case untrustedRoot = "untrusted-root"
    /// Answer AuthError INTERNAL_ERROR although credentials exist.
    case error
    /// Never answer.
    case silent
}

/// How the simulator answers deviceauth challenges. Without it, it answers AuthError.
public struct DeviceAuthSimulation: Sendable {
    public var authority: AuthAuthority
    public var fault: AuthFault?

    public init(authority: AuthAuthority, fault: AuthFault? = nil) {
        self.authority = authority
        self.fault = fault
    }
}
