// SPDX-License-Identifier: GPL-3.0-or-later
// The sender's judgement of a device's answer to the deviceauth challenge, in the order the
// strict senders apply their checks (docs/protocol.md §8): the answer's form, the
// TLS certificate's dates, the echoed nonce, the chain to a Cast root, the signature, and the
// audio-only policy. CRLs in the answer are not evaluated (see README "Device authentication").
import CastProtocol
import Crypto
import Foundation
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509
import _CryptoExtras

/// The digest the device used for its signature.
public enum DeviceAuthHash: Sendable, Hashable {
    case sha1, sha256
}

/// Judges an `AuthResponse`. Pure apart from reading the clock the caller passes in.
public struct DeviceAuthenticator: Sendable {
    /// A genuine device's TLS certificate lives at most this long (Chromium's
    /// `kMaxSelfSignedCertLifetimeInDays = 4`, docs/protocol.md §1).
    public static let maxTLSCertificateLifetime: TimeInterval = 4 * 24 * 3600
    /// The certificate policy that restricts a device certificate to audio-only devices.
    public static let audioOnlyPolicy: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 11129, 2, 5, 2]
    static let certificatePoliciesExtension: ASN1ObjectIdentifier = [2, 5, 29, 32]

    public var trustStore: CastTrustStore
    /// The device's advertised `ca` capability bits (bit 0 = video out), when known.
    public var advertisedCapabilities: Int?

    public init(trustStore: CastTrustStore, advertisedCapabilities: Int? = nil) {
        self.trustStore = trustStore
        self.advertisedCapabilities = advertisedCapabilities
    }

    /// A fresh random nonce for one challenge.
    public static func makeNonce() -> [UInt8] {
        var rng = SystemRandomNumberGenerator()
        return (0..<DeviceAuthWire.nonceLength).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    /// Judges the device's answer (`payload_binary` of the deviceauth reply).
    /// - Parameters:
    ///   - nonce: the nonce of our challenge.
    ///   - peerCertificateDER: the certificate the device presented in the TLS handshake.
    ///   - now: the time certificates must be valid at.
    public func verify(reply: [UInt8], nonce: [UInt8], peerCertificateDER: [UInt8]?, at now: Date = Date()) async -> DeviceAuthentication {
        switch await check(reply: reply, nonce: nonce, peerCertificateDER: peerCertificateDER, at: now) {
        case .success(let identity): .verified(identity)
        case .failure(let failure): .unverified(failure)
        }
    }

    private func check(reply: [UInt8], nonce: [UInt8], peerCertificateDER: [UInt8]?, at now: Date) async -> Result<DeviceIdentity, DeviceAuthFailure> {
        let message: ProtoDeviceAuthMessage
        do {
            message = try DeviceAuthWire.decode(reply)
        } catch {
            return .failure(.malformed(error.description))
        }
        if message.hasError {
            return .failure(.authError(Self.name(of: message.error.errorType)))
        }
        guard message.hasResponse else { return .failure(.malformed("it holds neither a response nor an error")) }
        let response = message.response
        guard response.hasClientAuthCertificate, !response.clientAuthCertificate.isEmpty else {
            return .failure(.malformed("it carries no device certificate"))
        }
        guard response.hasSignature, !response.signature.isEmpty else { return .failure(.malformed("it carries no signature")) }
        if let problem = Self.checkTLSCertificate(peerCertificateDER, at: now) { return .failure(problem) }
        guard let peerCertificateDER else { return .failure(.tlsCertificate("the device presented no certificate")) }
        // Chromium enforces the echo only behind a flag for old receivers that omit it; a
        // different nonce, though, can only be a replayed answer.
        if response.hasSenderNonce, [UInt8](response.senderNonce) != nonce { return .failure(.nonceMismatch) }
        if response.hasSignatureAlgorithm, response.signatureAlgorithm == .rsassaPss {
            return .failure(.badSignature("the device signed with RSASSA-PSS, which Cast senders do not accept"))
        }
        let identity: DeviceIdentity
        switch await verifyChain(
            deviceCertificateDER: [UInt8](response.clientAuthCertificate),
            intermediatesDER: response.intermediateCertificate.map { [UInt8]($0) }, at: now)
        {
        case .success(let id): identity = id
        case .failure(let f): return .failure(f)
        }
        let hash: DeviceAuthHash = response.hashAlgorithm == .sha256 ? .sha256 : .sha1
        if case .failure(let f) = Self.verifySignature(
            [UInt8](response.signature), over: nonce + peerCertificateDER,
            deviceCertificateDER: [UInt8](response.clientAuthCertificate), hash: hash)
        {
            return .failure(f)
        }
        if Self.violatesAudioOnlyPolicy(identity, advertisedCapabilities: advertisedCapabilities) {
            return .failure(.audioOnlyDeviceWithVideo)
        }
        return .success(identity)
    }

    // MARK: the separate checks (public for tests against published Cast test data)

    /// True when the chain restricts the device to audio but it advertises video output
    /// (`ca` bit 0, docs/protocol.md §16); unknown capabilities never fail.
    public static func violatesAudioOnlyPolicy(_ identity: DeviceIdentity, advertisedCapabilities: Int?) -> Bool {
        guard identity.audioOnly, let ca = advertisedCapabilities else { return false }
        return ca & 1 != 0
    }

    /// The TLS certificate rules of docs/protocol.md §1; nil when they hold.
    public static func checkTLSCertificate(_ der: [UInt8]?, at now: Date) -> DeviceAuthFailure? {
        guard let der else { return .tlsCertificate("the device presented no certificate") }
        let certificate: Certificate
        do {
            certificate = try Certificate(derEncoded: der)
        } catch {
            return .tlsCertificate("it could not be parsed (\(error))")
        }
        if now < certificate.notValidBefore {
            return .tlsCertificate("it is not valid before \(stamp(certificate.notValidBefore)) (is this computer's clock right?)")
        }
        if now > certificate.notValidAfter {
            return .tlsCertificate("it expired on \(stamp(certificate.notValidAfter))")
        }
        if certificate.notValidAfter.timeIntervalSince(now) > maxTLSCertificateLifetime {
            return .tlsCertificate("it is valid until \(stamp(certificate.notValidAfter)), more than 4 days ahead; Cast devices use short-lived certificates")
        }
        return nil
    }

    /// Builds the chain from the device certificate through the intermediates to a trusted
    /// root, valid at `now`, and reads the device's identity from it.
    public func verifyChain(deviceCertificateDER: [UInt8], intermediatesDER: [[UInt8]], at now: Date) async -> Result<DeviceIdentity, DeviceAuthFailure> {
        let device: Certificate
        var intermediates: [Certificate] = []
        do {
            device = try Certificate(derEncoded: deviceCertificateDER)
        } catch {
            return .failure(.malformed("the device certificate could not be parsed (\(error))"))
        }
        for (i, der) in intermediatesDER.enumerated() {
            do {
                intermediates.append(try Certificate(derEncoded: der))
            } catch {
                return .failure(.malformed("intermediate certificate \(i + 1) could not be parsed (\(error))"))
            }
        }
        var verifier = Verifier(rootCertificates: CertificateStore(trustStore.roots)) {
            RFC5280Policy(fixedExpiryValidationTime: now)
            CastDeviceCertificatePolicy()
        }
        let result = await verifier.validate(leaf: device, intermediates: CertificateStore(intermediates))
        switch result {
        case .validCertificate(let chain):
            let certificates = Array(chain)
            let audioOnly = certificates.dropLast().contains { Self.policies(of: $0).contains(Self.audioOnlyPolicy) }
            return .success(
                DeviceIdentity(
                    commonName: device.subject.commonName ?? "(no common name)",
                    rootCommonName: chain.root.subject.commonName ?? "(no common name)",
                    audioOnly: audioOnly))
        case .couldNotValidate(let failures):
            // Say "expired" when a certificate we were given is outside its dates: that is the
            // actionable part (a device clock or a certificate past its life), not the path search.
            for certificate in [device] + intermediates where now < certificate.notValidBefore || now > certificate.notValidAfter {
                let name = certificate.subject.commonName ?? "a certificate"
                return .failure(
                    .expired(
                        now > certificate.notValidAfter
                            ? "“\(name)” expired on \(Self.stamp(certificate.notValidAfter))"
                            : "“\(name)” is not valid before \(Self.stamp(certificate.notValidBefore))"))
            }
            if let first = failures.first {
                return .failure(.untrustedChain("\(first.policyFailureReason)"))
            }
            let top = intermediates.last ?? device
            return .failure(
                .untrustedChain("“\(top.subject.commonName ?? "?")” is issued by “\(top.issuer.commonName ?? "?")”, which is not a trusted Cast root"))
        }
    }

    /// Checks an RSA PKCS#1 v1.5 signature by the device certificate's key over `data`.
    public static func verifySignature(
        _ signature: [UInt8], over data: [UInt8], deviceCertificateDER: [UInt8], hash: DeviceAuthHash
    ) -> Result<Void, DeviceAuthFailure> {
        let certificate: Certificate
        do {
            certificate = try Certificate(derEncoded: deviceCertificateDER)
        } catch {
            return .failure(.malformed("the device certificate could not be parsed (\(error))"))
        }
        guard let key = _RSA.Signing.PublicKey(certificate.publicKey) else {
            return .failure(.badSignature("the device certificate's key is not an RSA key"))
        }
        let sig = _RSA.Signing.RSASignature(rawRepresentation: signature)
        let valid =
            switch hash {
            case .sha256: key.isValidSignature(sig, for: SHA256.hash(data: data), padding: .insecurePKCS1v1_5)
            case .sha1: key.isValidSignature(sig, for: Insecure.SHA1.hash(data: data), padding: .insecurePKCS1v1_5)
            }
        return valid
            ? .success(()) : .failure(.badSignature("the signature over our nonce and the TLS certificate does not match the device certificate's key"))
    }

    /// The certificate policy OIDs a certificate lists (empty when it has no such extension).
    static func policies(of certificate: Certificate) -> [ASN1ObjectIdentifier] {
        guard let ext = certificate.extensions[oid: certificatePoliciesExtension],
            let root = try? DER.parse(ext.value), case .constructed(let infos) = root.content
        else { return [] }
        var oids: [ASN1ObjectIdentifier] = []
        for info in infos {
            guard case .constructed(let parts) = info.content, let first = parts.first(where: { _ in true }),
                let oid = try? ASN1ObjectIdentifier(derEncoded: first)
            else { continue }
            oids.append(oid)
        }
        return oids
    }

    static func name(of type: ProtoAuthError.ErrorType) -> String {
        switch type {
        case .internalError: "INTERNAL_ERROR"
        case .noTls: "NO_TLS"
        case .signatureAlgorithmUnavailable: "SIGNATURE_ALGORITHM_UNAVAILABLE"
        }
    }

    static func stamp(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }
}

/// What Cast asks of the chain beyond RFC 5280: the device key may sign, the CAs may certify.
/// Handling keyUsage, extendedKeyUsage and certificatePolicies here lets certificates mark them
/// critical without failing the chain.
struct CastDeviceCertificatePolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [
        .X509ExtensionID.keyUsage, .X509ExtensionID.extendedKeyUsage, DeviceAuthenticator.certificatePoliciesExtension,
    ]

    mutating func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        let certificates = Array(chain)
        guard let leaf = certificates.first else { return .meetsPolicy }
        if let usage = try? leaf.extensions.keyUsage, !usage.digitalSignature {
            return .failsToMeetPolicy(reason: "the device certificate may not be used for signatures (keyUsage)")
        }
        for ca in certificates.dropFirst() {
            if let usage = try? ca.extensions.keyUsage, !usage.keyCertSign {
                let name = ca.subject.commonName ?? "a CA"
                return .failsToMeetPolicy(reason: "“\(name)” may not sign certificates (keyUsage)")
            }
        }
        return .meetsPolicy
    }
}
