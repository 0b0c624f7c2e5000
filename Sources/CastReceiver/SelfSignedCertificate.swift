// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Crypto
import Foundation
import NIOSSL
import X509

/// The receiver's TLS identity: a fresh P-256 key and a self-signed certificate made at
/// start, valid for two days (strict senders refuse self-signed device certificates that
/// live longer than four days, docs/protocol.md §1).
enum SelfSignedCertificate {
    /// Lifetime of the certificate; must stay ≤ 4 days.
    static let lifetime: TimeInterval = 2 * 24 * 3600

    static func make(commonName: String) throws(CastReceiverError) -> (NIOSSLCertificate, NIOSSLPrivateKey) {
        do {
            let key = P256.Signing.PrivateKey()
            let name = try DistinguishedName { CommonName(commonName) }
            let now = Date()
            let certificate = try Certificate(
                version: .v3,
                serialNumber: Certificate.SerialNumber(),
                publicKey: Certificate.PublicKey(key.publicKey),
                // A minute of slack for clocks that disagree slightly.
                notValidBefore: now.addingTimeInterval(-60),
                notValidAfter: now.addingTimeInterval(lifetime),
                issuer: name,
                subject: name,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    SubjectAlternativeNames([.dnsName("localhost")])
                },
                issuerPrivateKey: Certificate.PrivateKey(key))
            let certPEM = try certificate.serializeAsPEM().pemString
            let nioCert = try NIOSSLCertificate(bytes: Array(certPEM.utf8), format: .pem)
            let nioKey = try NIOSSLPrivateKey(bytes: Array(key.pemRepresentation.utf8), format: .pem)
            return (nioCert, nioKey)
        } catch let error as CastReceiverError {
            throw error
        } catch {
            throw .tlsSetupFailed(reason: "\(error)")
        }
    }

    /// A TLS server context with the fresh identity. TLS 1.3 is not offered: with it,
    /// pychromecast 14.0.10 sometimes saw an EOF right after LAUNCH and reconnected
    /// (docs/protocol.md §18); with 1.2 as the maximum that was never seen.
    static func serverContext(commonName: String) throws(CastReceiverError) -> (context: NIOSSLContext, certificateDER: [UInt8]) {
        let (cert, key) = try make(commonName: commonName)
        var tls = TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(cert)], privateKey: .privateKey(key))
        tls.minimumTLSVersion = .tlsv12
        tls.maximumTLSVersion = .tlsv12
        do {
            return (try NIOSSLContext(configuration: tls), try cert.toDERBytes())
        } catch {
            throw .tlsSetupFailed(reason: "\(error)")
        }
    }
}
