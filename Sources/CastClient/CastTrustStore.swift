// SPDX-License-Identifier: GPL-3.0-or-later
import Crypto
import Foundation
import SwiftASN1
import X509

/// The root certificates a device certificate must chain to.
///
/// `shipped` holds the public Cast roots (Cast Root CA, Eureka Root CA) that CastDeck carries
/// (data/cast-roots/, fingerprints in README.md). Tests and labs add their own roots only
/// explicitly: `CASTDECK_EXTRA_CAST_ROOTS=FILE.pem` or `adding(pemFile:)`.
public struct CastTrustStore: Sendable {
    /// The environment variable naming a PEM file of extra roots.
    public static let extraRootsVariable = "CASTDECK_EXTRA_CAST_ROOTS"

    /// The shipped roots take part (parsed on first use: `shippedRoots`).
    private let includesShipped: Bool
    /// Roots given besides the shipped ones.
    private let added: [Certificate]

    init(roots: [Certificate]) {
        includesShipped = false
        added = roots
    }

    private init(includesShipped: Bool, added: [Certificate]) {
        self.includesShipped = includesShipped
        self.added = added
    }

    /// Every root, parsed. The shipped ones are parsed the first time any store needs them:
    /// when a device's certificate chain is checked, not when a connection opens. A device
    /// that answers the challenge without credentials (most non-Google receivers, the
    /// simulator without `--auth-ca`) never needs them, and a genuine device's own
    /// certificates are parsed first by the same code, so the roots add little there.
    var roots: [Certificate] { includesShipped ? Self.shippedRoots + added : added }

    /// The Cast roots shipped with CastDeck. Creating this store parses nothing (see `roots`).
    public static let shipped = CastTrustStore(includesShipped: true, added: [])

    /// The shipped roots, parsed once. A broken embedded root is a build mistake that the
    /// tests catch, so it stops the program.
    static let shippedRoots: [Certificate] = {
        do {
            var roots: [Certificate] = []
            for entry in CastRootCertificates.all {
                roots += try parse(pem: entry.pem, source: entry.file)
            }
            return roots
        } catch {
            fatalError("The embedded Cast roots are broken (\(error)); run scripts/gen-cast-roots.sh")
        }
    }()

    /// The shipped roots plus those in the file named by `CASTDECK_EXTRA_CAST_ROOTS`, if set.
    /// - Parameter environment: nil reads the process environment (one getenv, not a copy of
    ///   all of it); tests pass their own.
    public static func standard(environment: [String: String]? = nil) throws(CastTrustStoreError) -> CastTrustStore {
        guard let path = extraRootsFile(in: environment) else { return shipped }
        return try shipped.adding(pemFile: path)
    }

    /// The PEM file of extra roots `environment` names, if any (an empty value names none).
    public static func extraRootsFile(in environment: [String: String]? = nil) -> String? {
        guard let path = environmentValue(extraRootsVariable, in: environment), !path.isEmpty else { return nil }
        return path
    }

    /// Only the roots in a PEM file (one or more certificates).
    public init(pemFile path: String) throws(CastTrustStoreError) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        includesShipped = false
        added = try Self.parse(pem: text, source: path)
    }

    /// This store plus the roots in a PEM file.
    public func adding(pemFile path: String) throws(CastTrustStoreError) -> CastTrustStore {
        CastTrustStore(includesShipped: includesShipped, added: added + (try CastTrustStore(pemFile: path)).added)
    }

    /// The DER bytes of every root.
    public var rootsDER: [[UInt8]] { roots.compactMap { try? derBytes($0) } }

    /// The SHA-256 fingerprint of every root, lowercase hex without separators.
    public var fingerprints: [String] { rootsDER.map { SHA256.hash(data: $0).map { String(format: "%02x", $0) }.joined() } }

    /// The common name of every root.
    public var commonNames: [String] { roots.map { $0.subject.commonName ?? "(no common name)" } }

    /// The DER of each certificate in PEM text (`-----BEGIN CERTIFICATE-----` blocks; other
    /// block types are skipped).
    public static func certificatesDER(fromPEM text: String) throws(CastTrustStoreError) -> [[UInt8]] {
        try parse(pem: text, source: "PEM text").compactMap { try? derBytes($0) }
    }

    /// Reads `CERTIFICATE` blocks leniently: published Cast data wraps base64 at 76 columns,
    /// which strict PEM readers refuse.
    static func parse(pem text: String, source: String) throws(CastTrustStoreError) -> [Certificate] {
        var certificates: [Certificate] = []
        var body: String?
        // CastCore's trimming, not Foundation's: CharacterSet set up its tables on first use
        // and was a quarter of this function.
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingWhitespace()
            if line == "-----BEGIN CERTIFICATE-----" {
                body = ""
            } else if line == "-----END CERTIFICATE-----", let b64 = body {
                body = nil
                guard let der = Data(base64Encoded: b64) else {
                    throw .invalid(path: source, reason: "certificate \(certificates.count + 1) is not valid base64")
                }
                do {
                    certificates.append(try Certificate(derEncoded: [UInt8](der)))
                } catch {
                    throw .invalid(path: source, reason: "certificate \(certificates.count + 1) could not be parsed (\(error))")
                }
            } else if body != nil {
                body! += line
            }
        }
        guard !certificates.isEmpty else { throw .noCertificates(path: source) }
        return certificates
    }
}

/// Why a set of roots could not be loaded.
public enum CastTrustStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case invalid(path: String, reason: String)
    case noCertificates(path: String)

    public var description: String {
        switch self {
        case .unreadable(let p, let r): "Cannot read the Cast roots file \(p): \(r)."
        case .invalid(let p, let r): "The Cast roots file \(p) is not usable: \(r)."
        case .noCertificates(let p): "The Cast roots file \(p) holds no “BEGIN CERTIFICATE” block."
        }
    }
}

func derBytes(_ certificate: Certificate) throws -> [UInt8] {
    var serializer = DER.Serializer()
    try serializer.serialize(certificate)
    return serializer.serializedBytes
}

extension DistinguishedName {
    /// The first common name (CN) attribute, as text.
    var commonName: String? {
        for rdn in self {
            for attribute in rdn where attribute.type == .RDNAttributeType.commonName {
                return String(describing: attribute.value)
            }
        }
        return nil
    }
}
