// SPDX-License-Identifier: GPL-3.0-or-later
// Session manager, observers, custom channels and faults against the simulated receiver.
import CastClient
import CastProtocol
import CastReceiver
import Foundation
import Testing

@Suite("CastSession against the simulated receiver", .serialized, .timeLimit(.minutes(2)))
struct SessionTests {
    @Test func startJoinsARunningAppInsteadOfRelaunching() async throws {
        let sim = try await Simulator.start()
        let first = CastSession(device: sim.address, configuration: testConfiguration())
        let a = try await first.start()
        #expect(a.appID == CastAppID.defaultMediaReceiver)
        try await first.media.load(sampleMedia)
        let second = CastSession(device: sim.address, configuration: testConfiguration())
        let b = try await second.start()
        #expect(b.sessionID == a.sessionID)
        let firstID = await first.media.status?.mediaSessionId
        #expect(await second.media.status?.mediaSessionId == firstID)
        #expect(await second.media.mediaInformation?.contentId == sampleMedia.contentId)
        await first.leave()
        await second.leave()
        await sim.stop()
    }

    @Test func leaveKeepsTheAppStopEndsIt() async throws {
        let sim = try await Simulator.start()
        let session = CastSession(device: sim.address, configuration: testConfiguration())
        let info = try await session.start()
        await session.leave()
        #expect(session.state == .disconnected(.closedByUser))
        #expect(try await sim.server.receiverStatus().applications?.first?.sessionId == info.sessionID)

        let again = CastSession(device: sim.address, configuration: testConfiguration())
        #expect(try await again.join().sessionID == info.sessionID)
        try await again.stop()
        let apps = try await sim.server.receiverStatus().applications ?? []
        #expect(!apps.contains { $0.sessionId == info.sessionID })
        await sim.stop()
    }

    @Test func joinWithNothingRunningSaysSo() async throws {
        let sim = try await Simulator.start()
        let session = CastSession(device: sim.address, configuration: testConfiguration())
        await #expect(throws: CastClientError.noRunningApp(device: sim.address.description)) { try await session.join() }
        await session.leave()
        await sim.stop()
    }

    @Test func launchingAnUnknownAppIsATypedError() async throws {
        let sim = try await Simulator.start()
        let session = CastSession(device: sim.address, configuration: testConfiguration())
        do {
            try await session.start(appID: "00000000")
            Issue.record("launch should have failed")
        } catch {
            guard case .launchFailed(let app, _) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(app == "00000000")
        }
        await session.leave()
        await sim.stop()
    }

    @Test func connectionRefusedIsATypedError() async throws {
        let sim = try await Simulator.start()
        let address = sim.address
        await sim.stop()
        let session = CastSession(device: address, configuration: testConfiguration())
        await #expect {
            try await session.connect()
        } throws: { error in
            if case CastClientError.connectionFailed = error { return true }
            return false
        }
    }

    @Test func aNameThatResolvesToNothingIsToldApartFromOneThatRefuses() async throws {
        // .invalid never resolves (RFC 2606): nothing is even tried.
        let session = CastSession(device: DeviceAddress(host: "nonsense.invalid", port: 8009), configuration: testConfiguration())
        await #expect {
            try await session.connect()
        } throws: { error in
            if case CastClientError.hostNotFound(let host, let device, _) = error { return host == "nonsense.invalid" && device == "nonsense.invalid:8009" }
            return false
        }
        // The prober says which kind of failure it met, for the device list's one word.
        let prober = CastClientProber(configuration: testConfiguration())
        let unknown = await #expect(throws: ProbeFailure.self) {
            _ = try await prober.probe(DeviceAddress(host: "nonsense.invalid", port: 8009), timeout: .seconds(5))
        }
        #expect(unknown?.kind == .notFound)
        #expect(unknown?.detail.contains("nonsense.invalid") == true)
        let refused = await #expect(throws: ProbeFailure.self) {
            _ = try await prober.probe(DeviceAddress(host: "127.0.0.1", port: 1), timeout: .seconds(5))
        }
        #expect(refused?.kind == .notAnswering)
        #expect(refused?.detail.contains("Connection refused") == true)
    }

    @Test func resumeAfterProcessRestartFromTheStateFile() async throws {
        let sim = try await Simulator.start()
        let config = testConfiguration()
        let first = CastSession(device: sim.address, deviceID: "device-1", configuration: config)
        let info = try await first.start()
        try await first.media.load(sampleMedia)
        await first.disconnect()  // as when the process exits: the session stays remembered
        let saved = try #require(config.sessionStore?.session(forDevice: "device-1"))
        #expect(saved.sessionID == info.sessionID)

        let second = CastSession(device: sim.address, deviceID: "device-1", configuration: config)
        var states: [SessionState] = []
        let watcher = Task {
            for await s in second.stateUpdates() {
                states.append(s)
                if s.isConnected { return states }
            }
            return states
        }
        let resumed = try await second.resume()
        #expect(resumed.sessionID == info.sessionID)
        #expect(await second.media.mediaInformation?.contentId == sampleMedia.contentId)
        let seen = await watcher.value
        #expect(seen.contains(.resuming))

        try await second.stop()
        #expect(config.sessionStore?.session(forDevice: "device-1") == nil)
        let third = CastSession(device: sim.address, deviceID: "device-1", configuration: config)
        await #expect(throws: CastClientError.nothingToResume(device: "device-1")) { try await third.resume() }
        await sim.stop()
    }

    @Test func observersTextStyleReachesBothTracksReachStatusOnly() async throws {
        let sim = try await Simulator.start()
        let watcher = CastSession(device: sim.address, configuration: testConfiguration())
        let actor = CastSession(device: sim.address, configuration: testConfiguration())
        try await actor.start()
        try await actor.media.load(sampleMedia, autoplay: false)
        try await watcher.join()

        let statuses = Collector<MediaStatusSnapshot>()
        let metadata = Collector<MediaInformation?>()
        let t1 = statuses.start(await watcher.media.statusUpdates())
        let t2 = metadata.start(await watcher.media.metadataUpdates())
        try await eventually("initial values") {
            let a = await statuses.values.count
            let b = await metadata.values.count
            return a >= 1 && b >= 1
        }
        await statuses.clear()
        await metadata.clear()

        // Another sender changes the active tracks: status only.
        try await actor.media.setActiveTrackIDs([1])
        try await eventually("status with track 1") { await statuses.values.contains { $0.status?.activeTrackIds == [1] } }
        #expect(await metadata.values.isEmpty)

        // Another sender changes the text style: status and metadata.
        try await actor.media.setTextTrackStyle(TextTrackStyle(foregroundColor: "#00FF00FF", fontScale: 2))
        try await eventually("metadata with the new style") { await metadata.values.contains { $0?.textTrackStyle?.foregroundColor == "#00FF00FF" } }
        #expect(await statuses.values.contains { $0.status?.effectiveMedia?.textTrackStyle?.fontScale == 2 })
        t1.cancel()
        t2.cancel()
        await watcher.leave()
        await actor.leave()
        await sim.stop()
    }

    @Test func customChannelConnectsSendsAndReceives() async throws {
        let sim = try await Simulator.start()
        let session = CastSession(device: sim.address, configuration: testConfiguration())
        let channel = try await session.channel(namespace: helloWorld)
        let events = Collector<CastChannelEvent>()
        let t = events.start(channel.updates())
        #expect(await !channel.isConnected)
        await #expect(throws: CastClientError.channelNotConnected(namespace: helloWorld)) { try await channel.send("too early") }

        try await session.start(appID: customApp)
        #expect(await channel.isConnected)
        try await channel.send(#"{"hello":"cast"}"#)
        try await eventually("the echo") { await events.values.contains(.message(.string(#"{"hello":"cast"}"#))) }
        #expect(await events.values.first == .didConnect)
        try await channel.send(bytes: [0, 1, 2, 255])
        try await eventually("the binary echo") { await events.values.contains(.message(.binary([0, 1, 2, 255]))) }

        await session.leave()
        #expect(await !channel.isConnected)
        try await eventually("didDisconnect") { await events.values.contains(.didDisconnect) }
        t.cancel()
        await sim.stop()
    }

    @Test func channelWhoseNamespaceTheAppDoesNotListNeverConnects() async throws {
        let sim = try await Simulator.start()
        let session = CastSession(device: sim.address, configuration: testConfiguration())
        let channel = try await session.channel(namespace: "urn:x-cast:com.example.unlisted")
        let events = Collector<CastChannelEvent>()
        let t = events.start(channel.updates())
        try await session.start()  // the Default Media Receiver does not list it
        try await session.media.load(sampleMedia)
        try await session.media.requestStatus()
        #expect(await !channel.isConnected)
        #expect(await events.values.isEmpty)
        await #expect(throws: CastClientError.channelNotConnected(namespace: "urn:x-cast:com.example.unlisted")) { try await channel.send("x") }
        t.cancel()
        await session.leave()
        await sim.stop()
    }

    @Test func namespaceValidation() async throws {
        let session = CastSession(device: DeviceAddress(host: "127.0.0.1", port: 9), configuration: testConfiguration())
        for bad in [
            "com.example.game", "urn:x-cast:", "urn:x-cast:com.google.cast.media", "urn:x-cast:com.google.cast.tp.heartbeat",
            "urn:x-cast:" + String(repeating: "a", count: 130),
        ] {
            await #expect(throws: CastClientError.invalidNamespace(bad)) { _ = try await session.channel(namespace: bad) }
        }
        _ = try await session.channel(namespace: "urn:x-cast:com.example.game")
    }

    @Test func deviceAddressParsing() throws {
        #expect(try DeviceAddress(parsing: "10.0.0.2") == DeviceAddress(host: "10.0.0.2", port: 8009))
        #expect(try DeviceAddress(parsing: "tv.local:8010") == DeviceAddress(host: "tv.local", port: 8010))
        #expect(try DeviceAddress(parsing: "[::1]:9000") == DeviceAddress(host: "::1", port: 9000))
        #expect(try DeviceAddress(parsing: "fe80::1") == DeviceAddress(host: "fe80::1", port: 8009))
        #expect(throws: DeviceAddressError.self) { try DeviceAddress(parsing: "host:99999") }
        #expect(throws: DeviceAddressError.self) { try DeviceAddress(parsing: "") }
    }

    @Test func backoffDoublesToTheCapWithJitter() {
        let p = ReconnectPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(30), jitter: 0.2)
        #expect(p.delay(attempt: 1, random: 0.5) == .seconds(1))
        #expect(p.delay(attempt: 2, random: 0.5) == .seconds(2))
        #expect(p.delay(attempt: 5, random: 0.5) == .seconds(16))
        #expect(p.delay(attempt: 6, random: 0.5) == .seconds(30))
        #expect(p.delay(attempt: 40, random: 0.5) == .seconds(30))
        #expect(p.delay(attempt: 1, random: 0) == .milliseconds(800))
        #expect(p.delay(attempt: 1, random: 0.999_999) <= .milliseconds(1200))
    }

    @Test func retriesStayEagerInTheFirstMinuteThenBackOff() {
        let p = ReconnectPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(30), jitter: 0.2)
        // A device that restarts is usually back within a minute: retry every 2 s at most then.
        #expect(p.delay(attempt: 6, elapsed: .seconds(20), random: 0.5) == .seconds(2))
        #expect(p.delay(attempt: 1, elapsed: .zero, random: 0.5) == .seconds(1))
        #expect(p.delay(attempt: 6, elapsed: .seconds(61), random: 0.5) == .seconds(30))
        #expect(p.giveUpAfter == .seconds(300))
        #expect(p.maxAttempts == nil)
    }
}

@Suite("Faults injected by the simulator", .serialized, .timeLimit(.minutes(3)))
struct FaultTests {
    @Test func silentReceiverIsDeclaredDeadWithin12Seconds() async throws {
        let sim = try await Simulator.start(faults: FaultInjection(stopPongsAfter: .seconds(1)))
        let session = CastSession(device: sim.address, configuration: testConfiguration())
        try await session.start()
        let started = ContinuousClock.now
        // Hang guard of 12 s from the moment PONGs stop: the client must give up by itself.
        try await eventually("heartbeat loss", within: 13) {
            if case .disconnected(.heartbeatTimeout) = session.state { return true }
            return false
        }
        #expect(ContinuousClock.now - started < .seconds(13))
        await sim.stop()
    }

    @Test func receiverRestartedOnTheSamePortIsRejoined() async throws {
        let sim = try await Simulator.start()
        let port = sim.address.port
        let session = CastSession(device: sim.address, configuration: testConfiguration(reconnect: true))
        let first = try await session.start()
        let states = Collector<SessionState>()
        let t = states.start(session.stateUpdates())
        await sim.stop()
        try await eventually("resuming") { await states.values.contains(.resuming) }
        let restarted = try await Simulator.start(port: port)
        try await eventually("reconnected", within: 20) {
            if case .connected(let info?) = session.state { return info.appID == first.appID }
            return false
        }
        // The session is usable again: a command reaches the restarted receiver.
        try await session.media.load(sampleMedia)
        #expect(try await restarted.media()?.effectiveMedia?.contentId == sampleMedia.contentId)
        t.cancel()
        await session.leave()
        await restarted.stop()
    }

    @Test func malformedMediaStatusIsReportedAndTheLinkKept() async throws {
        let sim = try await Simulator.start(faults: FaultInjection(malformedMediaStatusOnce: true))
        let session = CastSession(device: sim.address, configuration: testConfiguration())
        let warnings = Collector<CastWarning>()
        let t = warnings.start(session.warnings())
        try await session.start()
        try? await session.media.load(sampleMedia)
        try await eventually("the warning") { await !warnings.values.isEmpty }
        #expect(await warnings.values.first?.namespace == CastNamespace.mediaURN)
        // Still connected and working.
        try await session.media.requestStatus()
        try await session.media.pause()
        #expect(try await sim.media()?.playerState == .paused)
        #expect(session.state.isConnected)
        t.cancel()
        await session.leave()
        await sim.stop()
    }

    @Test func aPeerThatNeverSpeaksTLSFailsWithinTheConnectTimeout() async throws {
        // A socket that accepts and then says nothing (a wedged device, a wrong port).
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, len) } }
        #expect(listen(listener, 4) == 0)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &len) } }
        let port = Int(UInt16(bigEndian: addr.sin_port))
        var configuration = testConfiguration()
        configuration.connectTimeout = .milliseconds(700)
        let session = CastSession(device: DeviceAddress(host: "127.0.0.1", port: port), configuration: configuration)
        do {
            try await session.connect()
            Issue.record("expected the connection to fail")
        } catch {
            guard case .tlsFailed(_, let reason) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(reason.contains("no TLS handshake within"))
        }
    }

    @Test func slowReplyIsATimeoutError() async throws {
        let sim = try await Simulator.start(faults: FaultInjection(replyDelay: .milliseconds(1500)))
        let session = CastSession(device: sim.address, configuration: testConfiguration(timeout: .milliseconds(500)))
        do {
            try await session.connect()
            Issue.record("expected a timeout")
        } catch {
            guard case .timeout(let request, _, let seconds) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(request == "GET_STATUS")
            #expect(seconds == 0.5)
        }
        await session.leave()
        await sim.stop()
    }
}
