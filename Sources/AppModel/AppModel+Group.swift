// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastCore
import CastDiscovery

/// One speaker of the session's group as the window shows it.
public struct GroupMemberInfo: Equatable, Sendable, Identifiable {
    /// The member's multizone device id (a UUID with dashes).
    public var id: String
    public var name: String
    /// The member's own volume, 0…1, when the group reported it.
    public var volume: Double?
    public var muted: Bool
    /// Where the member itself answers, when it is in the device list: only then can its own
    /// volume be set (through a connection to the member, as the Google Home app does).
    public var address: DeviceAddress?

    /// "Kitchen speaker · 40 %" (or the name alone while its volume is unknown).
    public var label: String {
        guard let volume else { return name }
        guard !muted else {
            // TRANSLATORS: a speaker's state after its name, as in "Kitchen speaker · muted".
            return Localization.joinParts([name, tr("muted")])
        }
        // TRANSLATORS: a speaker's volume in per cent, as "40 %".
        return Localization.joinParts([name, tr("{0} %", Int((volume * 100).rounded()))])
    }
}

extension AppModel {
    /// The speakers of the session's group, in the order the group lists them; empty when the
    /// device is not a group.
    public var groupMembers: [GroupMemberInfo] {
        (group?.members ?? []).map { member in
            GroupMemberInfo(
                id: member.id, name: member.name, volume: member.volume, muted: member.muted ?? false,
                address: device(of: member)?.address)
        }
    }

    /// A group's speakers for its row in the list, "Speakers: Kitchen, Office, Bedroom", once
    /// the group was asked; nil before.
    public func memberSummary(ofGroup deviceID: String) -> String? {
        guard let names = knownGroups[deviceID]?.map(\.name), !names.isEmpty else { return nil }
        // TRANSLATORS: separates the names in a list of speakers, as in "Kitchen, Office".
        let list = names.map { "\u{2068}\($0)\u{2069}" }.joined(separator: tr(", "))
        return tr("Speakers: {0}", list)
    }

    /// The listed speaker that is this member: its mDNS id is the member's multizone id
    /// without the dashes; a speaker added by address (whose id CastDeck does not learn) is
    /// known by its name, when one listed speaker has it.
    func device(of member: CastGroupMember) -> DeviceInfo? {
        let speakers = devices.filter { !$0.isGroup && knownGroups[$0.id] == nil }
        if let known = speakers.first(where: { member.matches(deviceID: $0.id) }) { return known }
        let named = speakers.filter { $0.friendlyName == member.name }
        return named.count == 1 ? named[0] : nil
    }

    /// Follows the group of `session`: members, their volumes, a member that drops out.
    func followGroup(_ session: CastSession) -> Task<Void, Never> {
        Task { [weak self] in
            for await group in await session.groupUpdates() {
                guard let self, self.session === session else { return }
                self.groupChanged(to: group, deviceID: session.deviceID)
            }
        }
    }

    private func groupChanged(to reported: CastGroup?, deviceID: String) {
        let old = group
        // A lone speaker reports itself as a group of one: that is no group to show.
        let device = devices.first { $0.id == deviceID }
        let lone = reported.map { g in
            g.members.count == 1 && (g.members[0].matches(deviceID: deviceID) || g.members[0].name == device?.friendlyName)
        }
        let new = lone == true ? nil : reported
        group = new
        if let new { knownGroups[deviceID] = new.members }
        guard let old, let new else { return }
        let groupName = device?.friendlyName ?? ""
        let gone = old.members.filter { member in !new.members.contains { $0.id == member.id } }
        if let member = gone.first {
            post(tr("{0} left the group {1}.", member.name, groupName))
        }
    }

    /// Sets one speaker's own volume through a connection to the speaker itself (the group's
    /// volume, the session's, scales every speaker instead).
    public func setMemberVolume(_ memberID: String, to level: Double) async {
        guard let member = group?.members.first(where: { $0.id == memberID }) else { return }
        guard let device = device(of: member) else {
            post(
                tr(
                    "CastDeck cannot set the volume of {0} alone: it is not in the device list. Add it by its address, or set it in the Google Home app.",
                    member.name))
            return
        }
        let level = min(1, max(0, level))
        do {
            let session = try await memberSession(memberID, device: device)
            _ = try await session.setVolume(level)
        } catch {
            memberSessions[memberID] = nil
            fail(error, device: member.name)
        }
    }

    /// The open link to a member, made on first use and kept while the group session lasts.
    private func memberSession(_ memberID: String, device: DeviceInfo) async throws -> CastSession {
        if let open = memberSessions[memberID], open.device == device.address { return open }
        let session = CastSession(device: device.address, deviceID: device.id, configuration: clientConfiguration)
        _ = try await session.connect()
        memberSessions[memberID] = session
        return session
    }

    /// Closes the links to members (the group session ended).
    func forgetGroup() {
        group = nil
        let open = memberSessions.values
        memberSessions = [:]
        Task { for session in open { await session.disconnect() } }
    }

    /// Asks a listed group for its speakers once, so that its row can name them.
    func askGroupForMembers(_ device: CastDevice) {
        guard device.isGroup || device.model == CastDevice.groupModel, device.source != .local,
            knownGroups[device.id] == nil, !groupsAsked.contains(device.id)
        else { return }
        groupsAsked.insert(device.id)
        let address = DeviceAddress(host: device.host, port: device.port)
        let configuration = clientConfiguration
        Task { [weak self] in
            let members = await Self.members(ofGroupAt: address, id: device.id, configuration: configuration)
            guard let self else { return }
            if let members {
                self.knownGroups[device.id] = members
            } else {
                // The row stays as it is: the group was not reachable now. The next time it is
                // listed anew (or connected to) it is asked again.
                self.groupsAsked.remove(device.id)
            }
        }
    }

    /// A group's speakers, asked on a link of their own (nil: no answer, or not a group).
    nonisolated static func members(
        ofGroupAt address: DeviceAddress, id: String, configuration: CastClientConfiguration
    ) async -> [CastGroupMember]? {
        let session = CastSession(device: address, deviceID: id, configuration: configuration)
        defer { Task { await session.disconnect() } }
        do {
            _ = try await session.connect()
            return try await session.requestGroupStatus(timeout: .seconds(3)).members
        } catch {
            return nil
        }
    }

    /// Play on Group ("stream expansion", as phones add a speaker): what plays here moves to a
    /// speaker group that holds both this device and `moveTargets[index]`. Groups are asked for
    /// their speakers first where that is not known yet. Without such a group, says that the
    /// two must be grouped in the Google Home app (a sender cannot make groups).
    func playOnGroup(withTargetAt index: Int) async {
        let targets = moveTargets
        guard targets.indices.contains(index), let here = connectedDevice else { return }
        let other = targets[index]
        if other.isGroup || here.isGroup {
            return await move(to: other)
        }
        var group = groupHolding(here, other)
        if group == nil {
            await askGroups()
            group = groupHolding(here, other)
        }
        guard let group else {
            post(
                tr(
                    "{0} and {1} are not in a speaker group. Group them in the Google Home app, then play on the group.",
                    here.friendlyName, other.friendlyName))
            return
        }
        await move(to: group)
    }

    /// The listed group whose speakers include both devices.
    func groupHolding(_ a: DeviceInfo, _ b: DeviceInfo) -> DeviceInfo? {
        devices.first { group in
            guard let members = knownGroups[group.id], group.id != a.id, group.id != b.id else { return false }
            return [a, b].allSatisfy { device in
                members.contains { $0.matches(deviceID: device.id) || $0.name == device.friendlyName }
            }
        }
    }

    /// Asks every listed device that may be a group (a group's model, or a port other than
    /// 8009, where groups are) for its speakers, all at once, and waits for the answers.
    private func askGroups() async {
        let candidates = devices.filter {
            ($0.isGroup || $0.port != CastDevice.defaultPort) && $0.origin != .demo && knownGroups[$0.id] == nil
        }
        let configuration = clientConfiguration
        let answers = await withTaskGroup(of: (String, [CastGroupMember]?).self) { tasks in
            for device in candidates {
                let address = device.address
                tasks.addTask { (device.id, await Self.members(ofGroupAt: address, id: device.id, configuration: configuration)) }
            }
            var found: [(String, [CastGroupMember]?)] = []
            for await answer in tasks { found.append(answer) }
            return found
        }
        for case let (id, members?) in answers where members.count > 1 { knownGroups[id] = members }
    }
}
