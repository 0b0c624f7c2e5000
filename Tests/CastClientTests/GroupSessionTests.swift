// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol
import CastReceiver
import Foundation
import Testing

/// CastSession's view of a speaker group, against the simulated group over TLS: the members
/// as the leader reports them, a member's own volume set on its own connection, and changes
/// the leader announces.
@Suite struct GroupSessions {
    static func startGroup() async throws -> GroupSimulation {
        func config(_ name: String) -> ReceiverConfiguration {
            var c = ReceiverConfiguration()
            c.host = "127.0.0.1"
            c.port = 0
            c.friendlyName = name
            c.testHooks = true
            return c
        }
        var leader = config("Downstairs")
        leader.model = "Google Cast Group"
        let members = ["Kitchen speaker", "Hall"].map { name -> ReceiverConfiguration in
            var c = config(name)
            ReceiverKind.speaker.configure(&c)
            c.kind = .speaker
            return c
        }
        let group = GroupSimulation(leader: leader, members: members)
        try await group.start()
        return group
    }

    static func address(_ server: CastReceiverServer) throws -> DeviceAddress {
        DeviceAddress(host: "127.0.0.1", port: try #require(server.port))
    }

    /// The next value of `stream` that `accept` takes (a hang guard, not a speed check).
    static func next(_ stream: AsyncStream<CastGroup?>, _ accept: @escaping @Sendable (CastGroup?) -> Bool) async -> CastGroup?? {
        await withTaskGroup(of: CastGroup??.self) { tasks in
            tasks.addTask {
                for await value in stream where accept(value) { return .some(value) }
                return nil
            }
            tasks.addTask {
                try? await Task.sleep(for: .seconds(15))
                return nil
            }
            let first = await tasks.next() ?? nil
            tasks.cancelAll()
            return first
        }
    }

    @Test func theLeaderReportsItsMembersAndTheirChanges() async throws {
        let group = try await Self.startGroup()
        let session = CastSession(device: try Self.address(group.leader), configuration: testConfiguration())
        let updates = await session.groupUpdates()
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next() == .some(nil), "nothing is known before the link")
        try await session.connect()
        // The leader answered the GET_STATUS sent on the link before the receiver status.
        let members = try #require(session.group?.members)
        #expect(members.map(\.name) == ["Kitchen speaker", "Hall"])
        #expect(members.map(\.volume) == [0.6, 0.6])
        #expect(members[0].id.count == 36 && members[0].id.contains("-"))
        #expect(try await session.requestGroupStatus() == session.group)

        // A member's own volume, on the member's own connection: only it changes.
        let kitchen = CastSession(device: try Self.address(group.members[0]), configuration: testConfiguration())
        let status = try await kitchen.setVolume(0.25)
        #expect(status.volume?.level == 0.25)
        let updated = await Self.next(updates) { $0?.members.first?.volume == 0.25 }
        #expect(updated??.members.map(\.volume) == [0.25, 0.6])
        #expect(try await group.members[1].receiverStatus().volume?.level == 0.6)

        // The group volume scales every member.
        try await session.setVolume(0.3)
        let scaled = await Self.next(updates) { $0?.members.last?.volume == 0.3 }
        #expect(scaled??.members.map { ($0.volume ?? 0) * 1000 }.map { $0.rounded() } == [125, 300])
        #expect(try await kitchen.requestReceiverStatus().volume?.level == 0.125)

        // A member that leaves is gone from the group.
        #expect(try await group.removeMember("hall"))
        let left = await Self.next(updates) { $0?.members.count == 1 }
        #expect(left??.members.map(\.name) == ["Kitchen speaker"])
        await kitchen.disconnect()
        await session.disconnect()
        await group.stop()
    }

    @Test func aLeaderThatMovesIsFoundAgainAndAskedAgain() async throws {
        let group = try await Self.startGroup()
        let leader = group.leader
        // `locate` is what discovery answers: the leader's port now.
        let session = CastSession(
            device: try Self.address(leader), configuration: testConfiguration(reconnect: true),
            locate: { leader.port.map { DeviceAddress(host: "127.0.0.1", port: $0) } })
        let states = Collector<SessionState>()
        let watching = states.start(session.stateUpdates())
        let updates = await session.groupUpdates()
        try await session.connect()
        #expect(session.group?.members.count == 2)
        let oldPort = session.device.port
        try await group.moveLeader(toPort: 0)
        try await eventually("the session to link to the moved leader") {
            session.device.port != oldPort && session.state == .connected(nil)
        }
        #expect(session.device.port == leader.port)
        #expect(await states.values.contains(.resuming))
        // The leader's changes reach the stream over the new link.
        #expect(try await group.removeMember("Kitchen speaker"))
        let left = await Self.next(updates) { $0?.members.map(\.name) == ["Hall"] }
        #expect(left != nil)
        watching.cancel()
        await session.disconnect()
        await group.stop()
    }
}
