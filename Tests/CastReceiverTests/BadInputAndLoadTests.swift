// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import CastReceiver
import NIOCore
import NIOPosix
import XCTest

/// Bad input on raw TLS sockets, many senders, and the fault flags.
final class BadInputAndLoadTests: ReceiverTestCase, @unchecked Sendable {
    /// A bystander keeps working while another connection misbehaves.
    func assertStillServing(_ s: TestSender, requestId: Int) async throws {
        try await s.send(ReceiverMessage.getStatus(ReceiverStatusRequest(requestId: requestId)), to: CastEndpoint.receiver)
        guard case .receiverStatus = try await s.receiverReply(requestId: requestId) else { return XCTFail("bystander not served") }
    }

    func testOversizedFrameClosesOnlyThatConnection() async throws {
        try await startServer()
        let bystander = try await sender("bystander")
        let bad = try await sender("bad")
        try await bad.sendRaw([0x00, 0x01, 0x00, 0x01] + [UInt8](repeating: 0x41, count: 64))  // announces 65,537 bytes
        try await bad.waitForClose()
        try await assertStillServing(bystander, requestId: 1)
    }

    func testGarbageClosesOnlyThatConnection() async throws {
        try await startServer()
        let bystander = try await sender("bystander")
        let bad = try await sender("bad")
        // A well-sized frame whose body is not a CastMessage protobuf.
        let body = [UInt8]("this is not a protobuf, just text".utf8)
        try await bad.sendRaw([0, 0, 0, UInt8(body.count)] + body)
        try await bad.waitForClose()
        try await assertStillServing(bystander, requestId: 1)
        // And an empty frame.
        let bad2 = try await sender("bad2")
        try await bad2.sendRaw([0, 0, 0, 0])
        try await bad2.waitForClose()
        try await assertStillServing(bystander, requestId: 2)
    }

    func testUnknownNamespaceIsDroppedAndConnectionStaysUsable() async throws {
        try await startServer()
        let s = try await sender()
        try await s.send(json: #"{"type":"HELLO","requestId":1}"#, namespace: "urn:x-cast:com.example.unknown", to: CastEndpoint.receiver)
        try await s.send(json: #"{"type":"GET_STATUS","requestId":2}"#, namespace: CastNamespace.mediaURN, to: "no-such-transport")
        try await assertStillServing(s, requestId: 3)
        XCTAssertFalse(s.received.contains { $0.namespace == "urn:x-cast:com.example.unknown" })
    }

    func testJSONThatIsNotAnObjectGetsAnErrorReply() async throws {
        try await startServer()
        let s = try await sender()
        try await s.send(json: "[1, 2, 3]", namespace: CastNamespace.receiverURN, to: CastEndpoint.receiver)
        let reply = try await s.next("INVALID_REQUEST") { $0.namespace == CastNamespace.receiverURN }
        guard case .receiver(.invalidRequest(let e)) = try reply.decoded() else { return XCTFail("got \(reply)") }
        XCTAssertNil(e.requestId)
        XCTAssertEqual(e.reason, .invalidRequest)
        try await s.send(json: "not json at all", namespace: CastNamespace.receiverURN, to: CastEndpoint.receiver)
        _ = try await s.next("INVALID_REQUEST") { $0.namespace == CastNamespace.receiverURN }
        // A request whose fields have the wrong types names its requestId when it can.
        try await s.send(json: #"{"type":"LAUNCH","requestId":7,"appId":42}"#, namespace: CastNamespace.receiverURN, to: CastEndpoint.receiver)
        guard case .invalidRequest(let typed) = try await s.receiverReply(requestId: 7) else { return XCTFail("no reply to a bad LAUNCH") }
        XCTAssertEqual(typed.reason, .invalidRequest)
        try await assertStillServing(s, requestId: 8)
    }

    func testUnknownTypeGetsInvalidCommand() async throws {
        try await startServer()
        let s = try await sender()
        try await s.send(json: #"{"type":"MAKE_COFFEE","requestId":5}"#, namespace: CastNamespace.receiverURN, to: CastEndpoint.receiver)
        guard case .invalidRequest(let e) = try await s.receiverReply(requestId: 5) else { return XCTFail("no INVALID_REQUEST") }
        XCTAssertEqual(e.reason, .invalidCommand)
        let t = try await launch(s, requestId: 6)
        try await s.send(json: #"{"type":"DANCE","requestId":9,"mediaSessionId":1}"#, namespace: CastNamespace.mediaURN, to: t)
        guard case .invalidRequest(let m) = try await s.mediaReply(requestId: 9) else { return XCTFail("no media INVALID_REQUEST") }
        XCTAssertEqual(m.reason, .invalidCommand)
    }

    func testMessagesWithoutVirtualConnectionAreDropped() async throws {
        try await startServer()
        let s = try await TestSender.connect(port: server.port!, group: group)
        senders.append(s)
        // No CONNECT yet: the receiver namespace is dropped, heartbeat still works.
        try await s.send(ReceiverMessage.getStatus(ReceiverStatusRequest(requestId: 1)), to: CastEndpoint.receiver)
        try await s.send(HeartbeatMessage.ping, to: CastEndpoint.receiver)
        _ = try await s.next("PONG") { $0.namespace == CastNamespace.heartbeatURN && $0.utf8?.contains("PONG") == true }
        XCTAssertFalse(s.received.contains { $0.namespace == CastNamespace.receiverURN })
        try await s.connect(to: CastEndpoint.receiver)
        try await assertStillServing(s, requestId: 2)
    }

    func testHundredSendersAtOnce() async throws {
        try await startServer()
        let port = server.port!
        let group = self.group!
        let many = try await withThrowingTaskGroup(of: TestSender.self) { tasks in
            for i in 0..<100 {
                tasks.addTask {
                    let s = try await TestSender.connect(port: port, id: "sender-\(i)", group: group)
                    try await s.connect(to: CastEndpoint.receiver)
                    return s
                }
            }
            var all: [TestSender] = []
            for try await s in tasks { all.append(s) }
            return all
        }
        senders.append(contentsOf: many)
        let count = try await server.connectionCount()
        XCTAssertEqual(count, 100)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for (i, s) in many.enumerated() {
                tasks.addTask {
                    try await s.send(ReceiverMessage.getStatus(ReceiverStatusRequest(requestId: 1000 + i)), to: CastEndpoint.receiver)
                    guard case .receiverStatus = try await s.receiverReply(requestId: 1000 + i, timeout: 30) else { throw TestSender.Timeout(what: "status") }
                }
            }
            try await tasks.waitForAll()
        }
        // One LAUNCH: the other 99 hear about it with requestId 0.
        let t = try await launch(many[0])
        for s in many.dropFirst() {
            guard case .receiverStatus(let st) = try await s.receiverReply(requestId: 0, timeout: 30) else { return XCTFail("no broadcast") }
            XCTAssertEqual(st.status.runningApp?.transportId, t)
        }
    }

    // MARK: - Faults

    func testCloseAfterMessages() async throws {
        try await startServer { $0.faults.closeAfterMessages = 3 }
        let s = try await sender()  // 1: CONNECT
        try await s.send(ReceiverMessage.getStatus(ReceiverStatusRequest(requestId: 1)), to: CastEndpoint.receiver)  // 2
        _ = try await s.receiverReply(requestId: 1)
        try await s.send(ReceiverMessage.getStatus(ReceiverStatusRequest(requestId: 2)), to: CastEndpoint.receiver)  // 3
        _ = try await s.receiverReply(requestId: 2)
        try await s.waitForClose()
    }

    func testStopsAnsweringPingsAndDropsSilentSenders() async throws {
        try await startServer {
            $0.faults.stopPongsAfter = .seconds(1)
            $0.heartbeat = HeartbeatPolicy(interval: .milliseconds(200), timeout: .seconds(2))
        }
        let s = try await sender()
        try await s.send(HeartbeatMessage.ping, to: CastEndpoint.receiver)
        _ = try await s.next("PONG") { $0.utf8?.contains("PONG") == true }
        // The receiver PINGs a quiet sender (and this one answers, so it stays).
        _ = try await s.next("the receiver's PING") { $0.utf8?.contains("PING") == true }
        // Well past the fault time: PINGs go unanswered, everything else still works.
        try await Task.sleep(for: .milliseconds(1200))
        s.clear()
        try await s.send(HeartbeatMessage.ping, to: CastEndpoint.receiver)
        try await s.send(ReceiverMessage.getStatus(ReceiverStatusRequest(requestId: 1)), to: CastEndpoint.receiver)
        _ = try await s.receiverReply(requestId: 1)
        XCTAssertFalse(s.received.contains { $0.utf8?.contains("PONG") == true }, "PONG sent after the fault time")

        // A sender that never answers the receiver's PINGs is dropped.
        let mute = try await sender("mute")
        mute.stopAnsweringPings()
        try await mute.waitForClose()
        XCTAssertTrue(s.channel.isActive, "the answering sender is kept")
    }

    func testDelayedRepliesAndMalformedMediaStatus() async throws {
        try await startServer {
            $0.faults.replyDelay = .milliseconds(50)
            $0.faults.malformedMediaStatusOnce = true
        }
        let s = try await sender()
        let t = try await launch(s)
        try await s.send(MediaMessage.getStatus(MediaSessionRequest(requestId: 2, mediaSessionId: nil)), to: t)
        let bad = try await s.next("the malformed MEDIA_STATUS") { $0.namespace == CastNamespace.mediaURN }
        XCTAssertThrowsError(try bad.decoded())
        let empty = try await s.mediaStatus(requestId: 2)
        XCTAssertEqual(empty.status, [])
        _ = try await load(s, on: t, requestId: 3)
        XCTAssertFalse(s.received.contains { $0.namespace == CastNamespace.mediaURN && (try? $0.decoded()) == nil }, "only one malformed status")
    }
}
