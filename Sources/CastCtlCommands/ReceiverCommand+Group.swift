// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import ArgumentParser
import CastDiscovery
import CastReceiver
import Foundation

// `castctl receiver --group NAME --members A,B,C`: a simulated speaker group (CastReceiver's
// GroupSimulation). The leader is the group: model "Google Cast Group", the group bit in its
// `ca`, on --port; each member is a speaker on a free port. Output on stdout, one line each:
//
//     listening on HOST:PORT                         the group (the first line, as always)
//     member NAME listening on HOST:PORT id HEX      one per member, in the order given
//
// With --announce each gets its own mDNS service; a member that leaves (test hook
// GROUP_MEMBER_LEAVE) is withdrawn, and a leader that moves (GROUP_LEADER_MOVE) is announced
// again, same name and id, with its new port.
extension ReceiverCommand {
    var memberNames: [String] {
        (members ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    var memberHostList: [String] {
        (memberHosts ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func validateGroup() throws {
        guard let group else {
            if members != nil || memberHosts != nil { throw ValidationError("--members and --member-hosts need --group NAME.") }
            return
        }
        if memberHosts != nil, memberHostList.count != memberNames.count {
            throw ValidationError("--member-hosts gives one host for each of --members.")
        }
        guard !group.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("--group needs a name.") }
        let names = memberNames
        guard !names.isEmpty else { throw ValidationError("--group needs --members A,B,C: the names of its speakers.") }
        guard Set(names.map { $0.lowercased() }).count == names.count else { throw ValidationError("--members names each speaker once.") }
        if replayReceiver != nil { throw ValidationError("--group and --replay-receiver do not go together.") }
    }

    func runGroup(named name: String, leader base: ReceiverConfiguration) async throws {
        var leader = base
        leader.friendlyName = name
        leader.model = CastDevice.groupModel
        leader.kind = nil
        leader.setupPort = nil
        let hosts = memberHostList
        let members = memberNames.enumerated().map { index, memberName -> ReceiverConfiguration in
            var member = base
            member.friendlyName = memberName
            // On a host of its own a speaker is where a real one is: 8009, its setup API on 8008.
            member.host = hosts.isEmpty ? base.host : hosts[index]
            member.port = hosts.isEmpty ? 0 : 8009
            member.setupPort = hosts.isEmpty ? nil : 8008
            member.uuid = UUID().uuidString.lowercased()
            member.kind = .speaker
            ReceiverKind.speaker.configure(&member)
            return member
        }
        let simulation = GroupSimulation(leader: leader, members: members)
        do {
            try await simulation.start()
        } catch let error as CastReceiverError {
            throw CommandFailure(error.description)
        }
        let events = simulation.events()
        let announcers = GroupAnnouncers(enabled: announce)
        do {
            try await announcers.announce(simulation.leader, key: "leader")
            for member in simulation.members { try await announcers.announce(member, key: member.configuration.uuid) }
        } catch {
            await announcers.withdrawAll()
            await simulation.stop()
            throw CommandFailure("could not announce the group over mDNS: \(error)")
        }
        Console.out("listening on \(host):\(simulation.leader.port ?? port)\n")
        for member in simulation.members {
            let id = member.configuration.uuid.replacingOccurrences(of: "-", with: "")
            Console.out(
                "member \(member.configuration.friendlyName) listening on \(member.configuration.host):\(member.port ?? 0) id \(id)\n")
        }
        let follow = Task {
            for await event in events {
                switch event {
                case .memberLeft(let uuid, let memberName):
                    await announcers.withdraw(key: uuid)
                    Console.err("castctl: \(memberName) left the group\n")
                case .leaderMoved(let newPort):
                    Console.err("castctl: the group leader moved to port \(newPort)\n")
                    await announcers.withdraw(key: "leader")
                    do {
                        try await announcers.announce(simulation.leader, key: "leader")
                    } catch {
                        Console.err("castctl: could not announce the moved group leader: \(error)\n")
                    }
                }
            }
        }
        _ = await Self.waitForTerminationSignal()
        follow.cancel()
        await announcers.withdrawAll()
        await simulation.stop()
    }
}

/// One mDNS service per receiver of a simulated group, by key (the member's uuid, "leader").
actor GroupAnnouncers {
    private let enabled: Bool
    private var published: [String: any ReceiverAnnouncer] = [:]

    init(enabled: Bool) { self.enabled = enabled }

    func announce(_ server: CastReceiverServer, key: String) async throws {
        guard enabled else { return }
        guard let announcer = ReceiverAnnouncerFactory.make() else {
            throw CommandFailure("announcing over mDNS is unavailable in this build (CastDiscovery is not linked); run without --announce")
        }
        let c = server.configuration
        try await announcer.announce(
            ReceiverAnnouncement(
                friendlyName: c.friendlyName, uuid: c.uuid.replacingOccurrences(of: "-", with: ""), model: c.model, host: c.host,
                port: server.port ?? c.port, capabilities: c.kind?.capabilities))
        published[key] = announcer
    }

    func withdraw(key: String) async {
        await published.removeValue(forKey: key)?.withdraw()
    }

    func withdrawAll() async {
        for key in published.keys { await withdraw(key: key) }
    }
}
