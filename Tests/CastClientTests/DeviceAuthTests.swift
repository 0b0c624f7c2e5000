// SPDX-License-Identifier: GPL-3.0-or-later
// Device authentication (issue 18): the shipped Cast roots, Open Screen's published Cast test
// chains and signatures, and every answer the simulator can give over real TLS on loopback.
import CastClient
import CastProtocol
import CastReceiver
import Foundation
import Testing

/// The repository root, found from this file's path.
private let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Open Screen verifies its test chains at 2016-04-01 00:00 UTC; some of its intermediates have expired since.
private let april2016 = Date(timeIntervalSince1970: 1_459_468_800)

private func fixture(_ name: String) throws -> String {
    let url = try #require(Bundle.module.url(forResource: "Fixtures/CastCertificates/\(name)", withExtension: nil))
    return try String(contentsOf: url, encoding: .utf8)
}

/// The base64 body of every `-----BEGIN label-----` block, in order.
private func pemBlocks(_ text: String) -> [(label: String, bytes: [UInt8])] {
    var blocks: [(String, [UInt8])] = []
    var label: String?
    var body = ""
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
        if line.hasPrefix("-----BEGIN ") {
            label = String(line.dropFirst(11).dropLast(5))
            body = ""
        } else if line.hasPrefix("-----END "), let l = label {
            blocks.append((l, [UInt8](Data(base64Encoded: body) ?? Data())))
            label = nil
        } else if label != nil {
            body += line.trimmingCharacters(in: .whitespaces)
        }
    }
    return blocks
}

/// Test credentials made once per test run (RSA key generation is the slow part).
private let authority: AuthAuthority = {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-auth-\(UUID().uuidString)").path
    return try! AuthAuthority.loadOrCreate(directory: dir)
}()

@Suite("Device authentication: trust anchors and published Cast test data")
struct CastTrustDataTests {
    @Test func shippedRootsAreTheCastAndEurekaRoots() {
        let store = CastTrustStore.shipped
        #expect(Set(store.commonNames) == ["Cast Root CA", "Eureka Root CA"])
    }

    @Test func shippedRootsMatchTheDataFilesAndTheReadmeFingerprints() throws {
        let dataDir = repoRoot.appendingPathComponent("data/cast-roots")
        let files = try FileManager.default.contentsOfDirectory(atPath: dataDir.path).filter { $0.hasSuffix(".pem") }.sorted()
        var fromFiles: [[UInt8]] = []
        for f in files {
            fromFiles += try CastTrustStore.certificatesDER(fromPEM: String(contentsOf: dataDir.appendingPathComponent(f), encoding: .utf8))
        }
        #expect(Set(fromFiles) == Set(CastTrustStore.shipped.rootsDER), "run scripts/gen-cast-roots.sh after changing data/cast-roots")

        let readme = try String(contentsOf: repoRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Device authentication").dropFirst().first?.components(separatedBy: "\n## ").first)
        // Fingerprints are written as 32 colon-separated hex pairs.
        let pattern = try Regex("[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){31}")
        let listed = Set(section.matches(of: pattern).map { String(section[$0.range]).replacingOccurrences(of: ":", with: "").lowercased() })
        #expect(listed == Set(CastTrustStore.shipped.fingerprints))
        #expect(listed.count == 2)
    }

    @Test(arguments: [
        ("chromecast_gen1.pem", "Eureka Root CA"),
        ("chromecast_gen1_reissue.pem", "Cast Root CA"),
    ])
    func openScreenTestChainVerifiesAgainstTheRealRoots(file: String, root: String) async throws {
        let chain = try CastTrustStore.certificatesDER(fromPEM: try fixture(file))
        let authenticator = DeviceAuthenticator(trustStore: .shipped)
        let result = await authenticator.verifyChain(deviceCertificateDER: chain[0], intermediatesDER: Array(chain.dropFirst()), at: april2016)
        let identity = try result.get()
        #expect(identity.commonName == "2ZZBG9 FA8FCA3EF91A")
        #expect(identity.rootCommonName == root)
        #expect(!identity.audioOnly)
    }

    @Test func chromecastAudioChainCarriesTheAudioOnlyPolicy() async throws {
        let chain = try CastTrustStore.certificatesDER(fromPEM: try fixture("chromecast_audio.pem"))
        let result = await DeviceAuthenticator(trustStore: .shipped).verifyChain(
            deviceCertificateDER: chain[0], intermediatesDER: Array(chain.dropFirst()), at: april2016)
        let identity = try result.get()
        #expect(identity.commonName == "4ZZDZJ FA8FCA7EFE3C")
        #expect(identity.audioOnly)
        // ca bit 0 = video out, bit 2 = audio out.
        #expect(DeviceAuthenticator.violatesAudioOnlyPolicy(identity, advertisedCapabilities: 5))
        #expect(!DeviceAuthenticator.violatesAudioOnlyPolicy(identity, advertisedCapabilities: 4))
        #expect(!DeviceAuthenticator.violatesAudioOnlyPolicy(identity, advertisedCapabilities: nil))
        let video = DeviceIdentity(commonName: identity.commonName, rootCommonName: identity.rootCommonName, audioOnly: false)
        #expect(!DeviceAuthenticator.violatesAudioOnlyPolicy(video, advertisedCapabilities: 5))
    }

    @Test func pemLinesMayEndInCRLFOrCRAndBeIndented() throws {
        let text = try fixture("chromecast_gen1_reissue.pem")
        let expected = try CastTrustStore.certificatesDER(fromPEM: text)
        #expect(expected.count >= 2)
        for variant in [
            text.replacingOccurrences(of: "\n", with: "\r\n"), text.replacingOccurrences(of: "\n", with: "\r"),
            text.replacingOccurrences(of: "\n", with: "\n \t"), "\n\n" + text + "\n  \n",
        ] {
            #expect(try CastTrustStore.certificatesDER(fromPEM: variant) == expected)
        }
        #expect(throws: CastTrustStoreError.self) { try CastTrustStore.certificatesDER(fromPEM: "no certificates here\r\n") }
    }

    @Test func theRealChainIsRefusedWhenOnlyATestRootIsTrusted() async throws {
        let chain = try CastTrustStore.certificatesDER(fromPEM: try fixture("chromecast_gen1_reissue.pem"))
        let testOnly = try CastTrustStore(pemFile: authority.rootPath)
        let result = await DeviceAuthenticator(trustStore: testOnly).verifyChain(
            deviceCertificateDER: chain[0], intermediatesDER: Array(chain.dropFirst()), at: april2016)
        #expect(result.failureCode == "chain")
    }

    @Test func theRealChainIsExpiredLongAfterItsIntermediateEnded() async throws {
        let chain = try CastTrustStore.certificatesDER(fromPEM: try fixture("chromecast_audio.pem"))
        // Its intermediate "Chromecast ICA 4 (Audio)" ends on 2025-03-09.
        let result = await DeviceAuthenticator(trustStore: .shipped).verifyChain(
            deviceCertificateDER: chain[0], intermediatesDER: Array(chain.dropFirst()), at: Date(timeIntervalSince1970: 1_767_225_600))
        #expect(result.failureCode == "expired")
    }

    @Test func aRealDeviceSignatureVerifiesWithSHA1AndSHA256() throws {
        let device = try CastTrustStore.certificatesDER(fromPEM: try fixture("chromecast_gen1.pem"))[0]
        let blocks = pemBlocks(try fixture("2ZZBG9_FA8FCA3EF91A.pem"))
        let message = try #require(blocks.first { $0.label == "MESSAGE" }?.bytes)
        let sha1 = try #require(blocks.first { $0.label == "SIGNATURE SHA1" }?.bytes)
        let sha256 = try #require(blocks.first { $0.label == "SIGNATURE SHA256" }?.bytes)
        #expect(throws: Never.self) { try DeviceAuthenticator.verifySignature(sha1, over: message, deviceCertificateDER: device, hash: .sha1).get() }
        #expect(throws: Never.self) { try DeviceAuthenticator.verifySignature(sha256, over: message, deviceCertificateDER: device, hash: .sha256).get() }
        var tampered = message
        tampered[0] ^= 1
        #expect(throws: DeviceAuthFailure.self) {
            try DeviceAuthenticator.verifySignature(sha256, over: tampered, deviceCertificateDER: device, hash: .sha256).get()
        }
        #expect(throws: DeviceAuthFailure.self) {
            try DeviceAuthenticator.verifySignature(sha256, over: message, deviceCertificateDER: device, hash: .sha1).get()
        }
    }

    @Test func extraRootsComeOnlyFromTheNamedFile() throws {
        let none = try CastTrustStore.standard(environment: [:])
        #expect(none.rootsDER.count == 2)
        let extra = try CastTrustStore.standard(environment: [CastTrustStore.extraRootsVariable: authority.rootPath])
        #expect(extra.rootsDER.count == 3)
        #expect(throws: CastTrustStoreError.self) { try CastTrustStore.standard(environment: [CastTrustStore.extraRootsVariable: "/nonexistent/roots.pem"]) }
    }

    @Test func tlsCertificateRulesOfSection1_1() throws {
        let now = Date()
        // The simulator's device certificate lives five years: far too long for a TLS certificate.
        let longLived = try CastTrustStore.certificatesDER(fromPEM: String(contentsOfFile: authority.directory + "/device.pem", encoding: .utf8))[0]
        #expect(DeviceAuthenticator.checkTLSCertificate(longLived, at: now)?.code == "tls-certificate")
        #expect(DeviceAuthenticator.checkTLSCertificate(nil, at: now)?.code == "tls-certificate")
        let expired = try CastTrustStore.certificatesDER(fromPEM: String(contentsOfFile: authority.directory + "/device-expired.pem", encoding: .utf8))[0]
        #expect(DeviceAuthenticator.checkTLSCertificate(expired, at: now)?.code == "tls-certificate")
    }
}

extension Result where Failure == DeviceAuthFailure {
    var failureCode: String? { if case .failure(let f) = self { f.code } else { nil } }
}

/// A simulator with test credentials (or none), and a sender configuration that trusts its root.
private func authSimulator(fault: AuthFault? = nil, credentials: Bool = true) async throws -> Simulator {
    var config = ReceiverConfiguration()
    config.host = "127.0.0.1"
    config.port = 0
    if credentials { config.deviceAuth = DeviceAuthSimulation(authority: authority, fault: fault) }
    let server = CastReceiverServer(configuration: config)
    try await server.start()
    return Simulator(server: server, address: DeviceAddress(host: "127.0.0.1", port: try #require(server.port)))
}

private func authConfiguration(_ mode: DeviceAuthenticationPolicy.Mode = .verify, trustTestRoot: Bool = true) throws -> CastClientConfiguration {
    var c = testConfiguration()
    c.deviceAuthentication.mode = mode
    c.deviceAuthentication.trustStore = trustTestRoot ? try CastTrustStore.shipped.adding(pemFile: authority.rootPath) : .shipped
    // Only the silent device waits this long; nothing is measured.
    c.deviceAuthentication.timeout = .milliseconds(500)
    return c
}

@Suite("Device authentication against the simulated receiver", .serialized, .timeLimit(.minutes(2)))
struct DeviceAuthSessionTests {
    @Test func aCorrectChainVerifies() async throws {
        let sim = try await authSimulator()
        let session = CastSession(device: sim.address, configuration: try authConfiguration())
        try await session.connect()
        let outcome = await session.settledAuthentication()
        #expect(outcome == .verified(DeviceIdentity(commonName: AuthAuthority.deviceCommonName, rootCommonName: "CastDeck Test Root CA", audioOnly: false)))
        #expect(session.authentication.isVerified)
        #expect(session.authentication.commonName == AuthAuthority.deviceCommonName)
        await session.disconnect()
        await sim.stop()
    }

    @Test(arguments: [
        (AuthFault.badSignature, "signature"),
        (AuthFault.wrongNonce, "nonce"),
        (AuthFault.expired, "expired"),
        (AuthFault.untrustedRoot, "chain"),
        (AuthFault.error, "auth-error"),
        (AuthFault.silent, "no-answer"),
    ])
    func everyFaultGivesItsReason(fault: AuthFault, code: String) async throws {
        let sim = try await authSimulator(fault: fault)
        let session = CastSession(device: sim.address, configuration: try authConfiguration())
        try await session.connect()  // verification never blocks by default
        let outcome = await session.settledAuthentication()
        #expect(outcome.reasonCode == code, "\(outcome)")
        #expect(!session.authentication.isVerified)
        #expect(session.state.isConnected)
        await session.disconnect()
        await sim.stop()
    }

    @Test(arguments: [AuthFault.badSignature, .wrongNonce, .expired, .untrustedRoot, .error, .silent])
    func requiredVerificationRefusesEveryFault(fault: AuthFault) async throws {
        let sim = try await authSimulator(fault: fault)
        let session = CastSession(device: sim.address, configuration: try authConfiguration(.require))
        await #expect {
            try await session.connect()
        } throws: { error in
            guard case CastClientError.deviceNotVerified(_, let failure) = error else { return false }
            return session.authentication == .unverified(failure)
        }
        #expect(!session.state.isConnected)
        await sim.stop()
    }

    @Test func requiredVerificationAcceptsAGenuineDevice() async throws {
        let sim = try await authSimulator()
        let session = CastSession(device: sim.address, configuration: try authConfiguration(.require))
        let info = try await session.start()
        #expect(info.appID == CastAppID.defaultMediaReceiver)
        #expect(session.authentication.isVerified)
        await session.leave()
        await sim.stop()
    }

    @Test func withoutCredentialsTheSimulatorAnswersAuthError() async throws {
        let sim = try await authSimulator(credentials: false)
        let session = CastSession(device: sim.address, configuration: try authConfiguration())
        try await session.connect()
        #expect(await session.settledAuthentication() == .unverified(.authError("INTERNAL_ERROR")))
        await session.disconnect()
        await sim.stop()
    }

    @Test func theTestRootIsNotTrustedUnlessAdded() async throws {
        let sim = try await authSimulator()
        let session = CastSession(device: sim.address, configuration: try authConfiguration(trustTestRoot: false))
        try await session.connect()
        #expect(await session.settledAuthentication().reasonCode == "chain")
        await session.disconnect()
        await sim.stop()
    }

    @Test func offMeansNotChecked() async throws {
        let sim = try await authSimulator()
        var config = try authConfiguration()
        config.deviceAuthentication.mode = .off
        let session = CastSession(device: sim.address, configuration: config)
        try await session.connect()
        #expect(await session.settledAuthentication() == .notChecked)
        await session.disconnect()
        await sim.stop()
    }

    @Test func updatesShowCheckingThenTheVerdict() async throws {
        let sim = try await authSimulator(fault: .silent)
        let session = CastSession(device: sim.address, configuration: try authConfiguration())
        let seen = Collector<DeviceAuthentication>()
        let task = seen.start(session.authenticationUpdates())
        try await session.connect()
        await session.settledAuthentication()
        try await eventually("the verdict reaches observers") { await seen.values.last?.isSettled == true }
        let values = await seen.values
        #expect(values.first == .notChecked)
        #expect(values.contains(.checking))
        #expect(values.last?.reasonCode == "no-answer")
        task.cancel()
        await session.disconnect()
        await sim.stop()
    }
}
