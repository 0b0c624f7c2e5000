// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import Foundation
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// A simulated speaker group: a leader (the group's own receiver, on its own port, as a real
/// group is) and its member speakers, each a receiver on its own port, all on one event loop.
/// What they do together is in ReceiverCore+Group.swift; `castctl receiver --group` runs one.
///
///     let group = GroupSimulation(leader: groupConfig, members: [kitchenConfig, hallConfig])
///     try await group.start()
///     for await event in group.events() { ... }   // a member left, the leader moved
public final class GroupSimulation: Sendable {
    /// Something the group did that the network should hear about (castctl withdraws or
    /// re-announces the mDNS services).
    public enum Event: Sendable, Hashable {
        /// A member left the group and its receiver stopped (its `uuid` as configured).
        case memberLeft(uuid: String, name: String)
        /// The leader listens on `port` now; its senders were dropped.
        case leaderMoved(port: Int)
    }

    public let leader: CastReceiverServer
    /// The members in the order they were given (those that left are stopped).
    public let members: [CastReceiverServer]
    private let loopGroup: MultiThreadedEventLoopGroup
    private let link = GroupLink()
    private let broadcast = Mutex<[UUID: AsyncStream<Event>.Continuation]>([:])

    /// - Parameters:
    ///   - leader: the group's receiver (its name is the group's name; its model should be
    ///     "Google Cast Group").
    ///   - members: one configuration per member speaker, each with its own port and uuid.
    public init(leader: ReceiverConfiguration, members: [ReceiverConfiguration]) {
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        loopGroup = loops
        self.leader = CastReceiverServer(configuration: leader, sharing: loops)
        self.members = members.map { CastReceiverServer(configuration: $0, sharing: loops) }
    }

    /// Starts every member, then the leader, and joins them into the group.
    public func start() async throws {
        do {
            for member in members { try await member.start() }
            try await leader.start()
        } catch {
            await stop()
            throw error
        }
        let link = self.link, leaderCore = leader.core, memberCores = members.map(\.core)
        link.onEvent = { [weak self] event in
            guard let self else { return }
            Task { await self.carryOut(event) }
        }
        try await leaderCore.loop.submit {
            link.leader = leaderCore
            link.members = memberCores
            leaderCore.groupRole = .leader(link)
            // The group's volume starts where its loudest member is.
            leaderCore.volume = Volume(
                level: memberCores.compactMap(\.volume.level).max() ?? 1, muted: false, controlType: "master", stepInterval: 0.02)
            for core in memberCores { core.groupRole = .member(link) }
        }.get()
    }

    /// Stops every receiver and the loop they share. Safe to call more than once.
    public func stop() async {
        await leader.stop()
        for member in members { await member.stop() }
        broadcast.withLock { all in
            for c in all.values { c.finish() }
            all = [:]
        }
        try? await loopGroup.shutdownGracefully()
    }

    /// What the group does from now on.
    public func events() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(32))
        let key = UUID()
        broadcast.withLock { $0[key] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.broadcast.withLock { $0.removeValue(forKey: key) } }
        return stream
    }

    /// The member configured with this uuid (dashes and case ignored).
    public func member(uuid: String) -> CastReceiverServer? {
        let key = uuid.lowercased().filter(\.isHexDigit)
        return members.first { $0.configuration.uuid.lowercased().filter(\.isHexDigit) == key }
    }

    /// Moves the leader to `port` (0: any free one), as a real group does when another speaker
    /// takes the lead: the old listener and every sender socket close, the new one opens. The
    /// group's members, app and playback stay. Returns the new port.
    @discardableResult
    public func moveLeader(toPort port: Int) async throws -> Int {
        let bound = try await leader.move(toPort: port)
        send(.leaderMoved(port: bound))
        return bound
    }

    /// Takes a member out of the group, as the test hook GROUP_MEMBER_LEAVE does: the leader
    /// sends DEVICE_REMOVED, the member stops. False when no member has that name or id.
    @discardableResult
    public func removeMember(_ nameOrID: String) async throws -> Bool {
        let core = leader.core
        return try await core.loop.submit { core.groupHook(["type": "GROUP_MEMBER_LEAVE", "member": .string(nameOrID)]) }.get()
    }

    private func carryOut(_ event: GroupHookEvent) async {
        switch event {
        case .memberLeft(let uuid):
            guard let member = member(uuid: uuid) else { return }
            await member.stop()
            send(.memberLeft(uuid: uuid, name: member.configuration.friendlyName))
        case .leaderMove(let port):
            // The hook's answer goes out before the sockets close.
            try? await Task.sleep(for: .milliseconds(50))
            do {
                try await moveLeader(toPort: port)
            } catch {
                leader.configuration.logger.warning("the group leader could not move", metadata: ["port": "\(port)", "reason": "\(error)"])
            }
        }
    }

    private func send(_ event: Event) {
        broadcast.withLock { all in
            for c in all.values { c.yield(event) }
        }
    }
}

extension CastReceiverServer {
    /// Listens on `port` instead (0: any free one): the listener and every sender socket
    /// close first. Returns the new port.
    func move(toPort port: Int) async throws -> Int {
        guard let context = tls.withLock({ $0 }), let old = state.withLock({ $0.stopped ? nil : $0.channel }) else {
            throw CastReceiverError.notRunning
        }
        try? await old.close().get()
        let core = self.core
        try await core.loop.submit { core.dropAllSenders() }.get()
        let channel = try await listen(port: port, context: context)
        let bound = channel.localAddress?.port ?? port
        state.withLock {
            $0.channel = channel
            $0.port = bound
        }
        configuration.logger.info("receiver moved", metadata: ["host": "\(configuration.host)", "port": "\(bound)"])
        return bound
    }
}
