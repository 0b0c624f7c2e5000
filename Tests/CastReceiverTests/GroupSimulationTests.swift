// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import CastReceiver
import NIOCore
import NIOPosix
import XCTest

/// A simulated speaker group: the leader's multizone answers, one playback on every member,
/// each member's own volume, the group volume, and the hooks that make a member leave and the
/// leader move.
final class GroupSimulationTests: XCTestCase, @unchecked Sendable {
    var simulation: GroupSimulation!
    var group: MultiThreadedEventLoopGroup!
    var senders: [TestSender] = []

    override func setUp() async throws {
        let clock = ManualClock()
        func config(_ name: String, uuid: String) -> ReceiverConfiguration {
            var c = ReceiverConfiguration()
            c.port = 0
            c.clock = clock
            c.friendlyName = name
            c.uuid = uuid
            return c
        }
        var kitchen = config("Kitchen", uuid: "0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a")
        ReceiverKind.speaker.configure(&kitchen)
        kitchen.kind = .speaker
        var hall = config("Hall", uuid: "0b0b0b0b-0b0b-0b0b-0b0b-0b0b0b0b0b0b")
        hall.kind = .speaker
        var leader = config("Downstairs", uuid: "0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c")
        leader.model = "Google Cast Group"
        simulation = GroupSimulation(leader: leader, members: [kitchen, hall])
        try await simulation.start()
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    }

    override func tearDown() async throws {
        for s in senders { await s.close() }
        senders = []
        await simulation?.stop()
        try await group?.shutdownGracefully()
    }

    func sender(_ server: CastReceiverServer, _ id: String = "sender-0") async throws -> TestSender {
        let s = try await TestSender.connect(port: server.port!, id: id, group: group)
        senders.append(s)
        try await s.connect(to: CastEndpoint.receiver)
        return s
    }

    func multizone(_ s: TestSender, where wanted: @escaping @Sendable (MultizoneMessage) -> Bool) async throws -> MultizoneMessage {
        let m = try await s.next("a multizone message") { m in
            guard case .multizone(let z)? = try? m.decoded() else { return false }
            return wanted(z)
        }
        guard case .multizone(let z) = try m.decoded() else { throw TestSender.Timeout(what: "multizone") }
        return z
    }

    func members(_ s: TestSender, requestId: Int) async throws -> [MultizoneDevice] {
        try await s.send(MultizoneMessage.getStatus(MultizoneStatusRequest(requestId: requestId)), to: CastEndpoint.receiver)
        guard case .multizoneStatus(let m) = try await multizone(s, where: { $0.requestId == requestId }) else { return [] }
        return m.status?.devices ?? []
    }

    func receiverStatus(_ s: TestSender, requestId: Int) async throws -> ReceiverStatus? {
        try await s.send(ReceiverMessage.getStatus(ReceiverStatusRequest(requestId: requestId)), to: CastEndpoint.receiver)
        guard case .receiverStatus(let m) = try await s.receiverReply(requestId: requestId) else { return nil }
        return m.status
    }

    func testTheLeaderListsItsMembersWithTheirOwnVolumes() async throws {
        let s = try await sender(simulation.leader)
        let devices = try await members(s, requestId: 3)
        XCTAssertEqual(devices.map(\.name), ["Kitchen", "Hall"])
        XCTAssertEqual(devices.map(\.deviceId), ["0a0a0a0a-0a0a-0a0a-0a0a-0a0a0a0a0a0a", "0b0b0b0b-0b0b-0b0b-0b0b-0b0b0b0b0b0b"])
        XCTAssertEqual(devices.map(\.volume?.level), [0.6, 0.6])
        XCTAssertEqual(devices.first?.capabilities, ReceiverKind.speaker.capabilities)
        // A member is a speaker, not a group: it does not answer for the group.
        let k = try await sender(simulation.members[0])
        try await k.send(MultizoneMessage.getStatus(MultizoneStatusRequest(requestId: 4)), to: CastEndpoint.receiver)
        let value1 = try await receiverStatus(k, requestId: 5)?.volume?.level
        XCTAssertEqual(value1, 0.6)
        // The receiver answers in order: an answer to the GET_STATUS would be here already.
        let answered = try? await k.next("a multizone answer", timeout: 0.05) { $0.namespace == CastNamespace.multizoneURN }
        XCTAssertNil(answered)
    }

    func testALoadToTheGroupPlaysOnEveryMemberAndAMemberControlsTheGroupsPlayback() async throws {
        let s = try await sender(simulation.leader)
        try await s.send(ReceiverMessage.launch(LaunchRequest(requestId: 1, appId: CastAppID.defaultMediaReceiver)), to: CastEndpoint.receiver)
        guard case .receiverStatus(let st) = try await s.receiverReply(requestId: 1), let app = st.status.runningApp else { return XCTFail("no app") }
        try await s.connect(to: app.transportId)
        try await s.send(
            MediaMessage.load(
                LoadRequest(requestId: 2, media: MediaInformation(contentId: "https://example.com/a.mp3", contentType: "audio/mpeg", duration: 60))),
            to: app.transportId)
        let value2 = try await s.firstStatus(requestId: 2).playerState
        XCTAssertEqual(value2, .playing)

        let hall = try await sender(simulation.members[1], "sender-7")
        let seen = try await receiverStatus(hall, requestId: 9)?.runningApp
        XCTAssertEqual(seen?.sessionId, app.sessionId)
        try await hall.connect(to: app.transportId)
        try await hall.send(MediaMessage.getStatus(MediaSessionRequest(requestId: 10, mediaSessionId: nil)), to: app.transportId)
        let onHall = try await hall.firstStatus(requestId: 10)
        XCTAssertEqual(onHall.media?.contentId, "https://example.com/a.mp3")
        XCTAssertEqual(onHall.playerState, .playing)

        // PAUSE on a member pauses the group: the leader's sender hears it, the asker gets its answer.
        s.clear()
        try await hall.send(MediaMessage.pause(MediaSessionRequest(requestId: 11, mediaSessionId: onHall.mediaSessionId)), to: app.transportId)
        let value3 = try await hall.firstStatus(requestId: 11).playerState
        XCTAssertEqual(value3, .paused)
        let value4 = try await s.firstStatus(requestId: 0).playerState
        XCTAssertEqual(value4, .paused)
        let leaderMedia = try await simulation.leader.mediaStatus().first
        XCTAssertEqual(leaderMedia?.playerState, .paused)
        let value5 = try await simulation.members[0].mediaStatus().first?.playerState
        XCTAssertEqual(value5, .paused)
    }

    func testAMembersVolumeChangesOnlyItAndTheLeaderSaysSo() async throws {
        let s = try await sender(simulation.leader)
        let kitchen = try await sender(simulation.members[0], "sender-3")
        try await kitchen.send(ReceiverMessage.setVolume(SetVolumeRequest(requestId: 5, volume: Volume(level: 0.25))), to: CastEndpoint.receiver)
        guard case .receiverStatus(let st) = try await kitchen.receiverReply(requestId: 5) else { return XCTFail("no status") }
        XCTAssertEqual(st.status.volume?.level, 0.25)
        guard case .deviceUpdated(let u) = try await multizone(s, where: { if case .deviceUpdated = $0 { true } else { false } }) else { return }
        XCTAssertEqual(u.device.name, "Kitchen")
        XCTAssertEqual(u.device.volume?.level, 0.25)
        let value6 = try await simulation.members[1].receiverStatus().volume?.level
        XCTAssertEqual(value6, 0.6)
        let value7 = try await simulation.leader.receiverStatus().volume?.level
        XCTAssertEqual(value7, 0.6)
        let value8 = try await members(s, requestId: 6).map(\.volume?.level)
        XCTAssertEqual(value8, [0.25, 0.6])
    }

    func testTheGroupVolumeScalesEveryMember() async throws {
        let kitchen = try await sender(simulation.members[0], "sender-3")
        try await kitchen.send(ReceiverMessage.setVolume(SetVolumeRequest(requestId: 5, volume: Volume(level: 0.2))), to: CastEndpoint.receiver)
        _ = try await kitchen.receiverReply(requestId: 5)
        let s = try await sender(simulation.leader)
        try await s.send(ReceiverMessage.setVolume(SetVolumeRequest(requestId: 7, volume: Volume(level: 0.3))), to: CastEndpoint.receiver)
        guard case .receiverStatus(let st) = try await s.receiverReply(requestId: 7) else { return XCTFail("no status") }
        XCTAssertEqual(st.status.volume?.level, 0.3)
        let levels = try await members(s, requestId: 8).compactMap(\.volume?.level)
        XCTAssertEqual(levels.count, 2)
        XCTAssertEqual(levels[0], 0.1, accuracy: 1e-9)
        XCTAssertEqual(levels[1], 0.3, accuracy: 1e-9)
        // The member's own senders hear their new volume.
        let value9 = try await simulation.members[0].receiverStatus().volume?.level ?? -1
        XCTAssertEqual(value9, 0.1, accuracy: 1e-9)
        try await s.send(ReceiverMessage.setVolume(SetVolumeRequest(requestId: 9, volume: Volume(muted: true))), to: CastEndpoint.receiver)
        _ = try await s.receiverReply(requestId: 9)
        let value10 = try await members(s, requestId: 10).map(\.volume?.muted)
        XCTAssertEqual(value10, [true, true])
    }

    func testAMemberThatLeavesIsAnnouncedAndStops() async throws {
        let events = simulation.events()
        let s = try await sender(simulation.leader)
        try await s.send(
            json: #"{"type":"GROUP_MEMBER_LEAVE","member":"hall","requestId":4}"#, namespace: "urn:x-cast:io.github.castdeck.simulator",
            to: CastEndpoint.receiver)
        guard case .deviceRemoved(let r) = try await multizone(s, where: { if case .deviceRemoved = $0 { true } else { false } }) else { return }
        XCTAssertEqual(r.deviceId, "0b0b0b0b-0b0b-0b0b-0b0b-0b0b0b0b0b0b")
        var iterator = events.makeAsyncIterator()
        let value11 = await iterator.next()
        XCTAssertEqual(value11, .memberLeft(uuid: "0b0b0b0b-0b0b-0b0b-0b0b-0b0b0b0b0b0b", name: "Hall"))
        let value12 = try await members(s, requestId: 5).map(\.name)
        XCTAssertEqual(value12, ["Kitchen"])
        do {
            _ = try await simulation.members[1].receiverStatus()
            XCTFail("the member that left still runs")
        } catch let e as CastReceiverError {
            XCTAssertEqual(e, .notRunning)
        }
    }

    func testTheLeaderMovesToAnotherPortKeepingItsPlayback() async throws {
        let events = simulation.events()
        let oldPort = try XCTUnwrap(simulation.leader.port)
        let s = try await sender(simulation.leader)
        try await s.send(ReceiverMessage.launch(LaunchRequest(requestId: 1, appId: CastAppID.defaultMediaReceiver)), to: CastEndpoint.receiver)
        guard case .receiverStatus(let st) = try await s.receiverReply(requestId: 1), let app = st.status.runningApp else { return XCTFail("no app") }
        try await s.send(json: #"{"type":"GROUP_LEADER_MOVE","requestId":2}"#, namespace: "urn:x-cast:io.github.castdeck.simulator", to: CastEndpoint.receiver)
        try await s.waitForClose()
        var iterator = events.makeAsyncIterator()
        guard case .leaderMoved(let newPort) = await iterator.next() else { return XCTFail("no move") }
        XCTAssertNotEqual(newPort, oldPort)
        XCTAssertEqual(simulation.leader.port, newPort)
        let again = try await sender(simulation.leader, "sender-9")
        let value13 = try await receiverStatus(again, requestId: 3)?.runningApp?.sessionId
        XCTAssertEqual(value13, app.sessionId)
        let value14 = try await members(again, requestId: 4).count
        XCTAssertEqual(value14, 2)
    }
}
