// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// A simulated speaker group (GroupSimulation.swift starts it): the leader and its members are
// receivers on one event loop, so the leader calls its members directly.
//
//   leader ── multizone GET_STATUS → MULTIZONE_STATUS (members, their own volumes)
//          ── its app and media: every status it sends is mirrored to each member, which
//             shows the same app and playback to its own senders; a member's media commands
//             are carried out by the leader (one playback)
//          ── SET_VOLUME (the group volume) scales every member's volume in proportion
//   member ── SET_VOLUME changes only it; the leader sends DEVICE_UPDATED
//   hooks  ── GROUP_MEMBER_LEAVE: DEVICE_REMOVED, the member stops following;
//             GROUP_LEADER_MOVE: the leader listens on another port (GroupSimulation)

import CastProtocol
import Foundation
import Logging
import NIOCore

/// What a simulated group's leader and members share. Lives on the group's one loop.
final class GroupLink: @unchecked Sendable {
    weak var leader: ReceiverCore?
    var members: [ReceiverCore] = []
    /// The leader's app session last copied to the members (nil while the group plays nothing).
    var sharedSession: String?
    /// Told when a test hook asks a member to leave or the leader to move.
    var onEvent: (@Sendable (GroupHookEvent) -> Void)?
}

/// A change a test hook asks of the group, carried out by GroupSimulation.
enum GroupHookEvent: Sendable {
    case memberLeft(uuid: String)
    case leaderMove(port: Int)
}

/// A receiver's place in a simulated group.
enum GroupRole {
    case leader(GroupLink)
    case member(GroupLink)
}

extension ReceiverCore {
    /// The multizone `deviceId`: the UUID with dashes, as real groups write it.
    var multizoneID: String {
        let hex = Array(config.uuid.lowercased().filter(\.isHexDigit))
        guard hex.count == 32 else { return config.uuid }
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
    }

    var multizoneDevice: MultizoneDevice {
        MultizoneDevice(
            deviceId: multizoneID, name: config.friendlyName, capabilities: config.kind?.capabilities ?? 4,
            volume: Volume(level: volume.level, muted: volume.muted))
    }

    var groupLink: GroupLink? {
        switch groupRole {
        case .leader(let link), .member(let link): link
        case nil: nil
        }
    }

    /// A member that shows the group's app plays what its leader plays: no timeline of its
    /// own. While the group plays nothing a member is a speaker like any other and can play by
    /// itself; when the group starts, that app of its own ends (as on real speakers).
    var followsLeader: Bool {
        guard case .member(let link) = groupRole, let shared = link.leader?.running?.sessionId else { return false }
        return running?.sessionId == shared
    }

    /// Who carries out a media command: the leader for a member that shows the group's app,
    /// this receiver otherwise.
    var mediaCore: ReceiverCore {
        if followsLeader, case .member(let link) = groupRole, let leader = link.leader { return leader }
        return self
    }

    // MARK: the multizone namespace (the leader only)

    func handleMultizone(_ message: CastMessage, from c: SenderConnection) {
        guard case .leader(let link) = groupRole else {
            drop(message, from: c, "receiver-0 does not handle this namespace")
            return
        }
        let request: MultizoneMessage
        do {
            guard case .multizone(let m) = try message.decoded() else { return }
            request = m
        } catch {
            drop(message, from: c, error.description)
            return
        }
        guard case .getStatus(let r) = request else {
            drop(message, from: c, "the leader answers only GET_STATUS on the multizone namespace")
            return
        }
        let status = MultizoneStatus(devices: link.members.map(\.multizoneDevice), isMultichannel: false)
        reply(
            MultizoneMessage.multizoneStatus(MultizoneStatusMessage(requestId: r.requestId, status: status)), from: CastEndpoint.receiver, to: message.sourceID,
            on: c)
    }

    /// A multizone message from `receiver-0` to every sender of the leader.
    func broadcastMultizone(_ message: MultizoneMessage) {
        let m = CastMessage(source: CastEndpoint.receiver, destination: CastEndpoint.broadcast, message)
        for c in connections.values where !c.closing { send(m, to: c) }
    }

    // MARK: volume

    /// After SET_VOLUME on receiver-0: the leader scales its members, a member tells its leader.
    func groupVolumeChanged(from before: Volume) {
        switch groupRole {
        case .leader(let link):
            let old = before.level ?? 0, new = volume.level ?? old
            for member in link.members {
                var v = member.volume
                if new != old { v.level = old > 0 ? min(1, (v.level ?? old) * new / old) : new }
                if volume.muted != before.muted, let muted = volume.muted { v.muted = muted }
                guard v != member.volume else { continue }
                member.volume = v
                member.broadcastReceiverStatus(requestId: 0, asker: nil)
                broadcastMultizone(.deviceUpdated(MultizoneDeviceMessage(device: member.multizoneDevice)))
            }
        case .member(let link):
            guard volume != before else { return }
            link.leader?.broadcastMultizone(.deviceUpdated(MultizoneDeviceMessage(device: multizoneDevice)))
        case nil:
            break
        }
    }

    // MARK: shared playback

    /// The leader's app and timeline, copied to every member, which then calls `send` on itself
    /// to tell its own senders. Called by the leader after each status it sends.
    func mirrorToMembers(_ send: (ReceiverCore) -> Void) {
        guard case .leader(let link) = groupRole else { return }
        let shared = running?.sessionId
        for member in link.members {
            let following = member.running != nil && member.running?.sessionId == link.sharedSession
            if shared == nil {
                // The group's app stopped: its members stop it too; an app of a member's own stays.
                guard following else { continue }
                member.stopRunningApp()
                member.broadcastReceiverStatus(requestId: 0, asker: nil)
                continue
            }
            if member.running?.sessionId != shared {
                // The group's app started: a member's own app ends, and its senders hear the change.
                if member.running != nil, !following { member.stopRunningApp() }
                member.running = running
                member.broadcastReceiverStatus(requestId: 0, asker: nil)
            }
            member.running = running
            send(member)
        }
        link.sharedSession = shared
    }

    // MARK: test hooks

    /// GROUP_MEMBER_LEAVE {"member": NAME or id} and GROUP_LEADER_MOVE {"port": N} on the
    /// leader's simulator namespace; false when `value` is neither (or not for a leader).
    func groupHook(_ value: JSONValue) -> Bool {
        guard case .leader(let link) = groupRole else { return false }
        switch value["type"]?.stringValue {
        case "GROUP_MEMBER_LEAVE":
            guard let wanted = value["member"]?.stringValue?.lowercased(),
                let member = link.members.first(where: {
                    $0.config.friendlyName.lowercased() == wanted || $0.multizoneID == wanted || $0.config.uuid.lowercased() == wanted
                })
            else { return false }
            link.members.removeAll { $0 === member }
            member.groupRole = nil
            member.stopRunningApp()
            member.broadcastReceiverStatus(requestId: 0, asker: nil)
            broadcastMultizone(.deviceRemoved(MultizoneDeviceRemoved(deviceId: member.multizoneID)))
            logger.info("group member left", metadata: ["cast.member": "\(member.config.friendlyName)"])
            link.onEvent?(.memberLeft(uuid: member.config.uuid))
        case "GROUP_LEADER_MOVE":
            let port = value["port"]?.intValue ?? 0
            guard (0...65535).contains(port) else { return false }
            link.onEvent?(.leaderMove(port: port))
        default:
            return false
        }
        return true
    }

    /// Closes every sender socket (the leader moving away: its senders are dropped).
    func dropAllSenders() {
        for c in connections.values { close(c) }
    }
}
