// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol
import Foundation
import Testing

/// The group a sender keeps from the leader's messages: the real captures applied in turn.
@Suite struct CastGroupFolding {
    static let captures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/real-devices/multizone")

    func capture(_ name: String) throws -> MultizoneMessage {
        let text = try String(contentsOf: Self.captures.appendingPathComponent(name), encoding: .utf8)
        let message = CastMessage(source: "receiver-0", destination: "*", namespace: CastNamespace.multizoneURN, utf8: text)
        guard case .multizone(let m) = try message.decoded() else { throw CastProtocolError.invalidJSON(namespace: "multizone", reason: name) }
        return m
    }

    @Test func aStatusMakesTheGroup() throws {
        let group = try #require(CastGroup.applying(try capture("group-status-with-nest-hub.json"), to: nil))
        #expect(group.members.map(\.name) == ["Soundbar Speaker", "Dining Room Speaker", "Kitchen display", "Living Room Speaker"])
        #expect(group.members[2].capabilities == 229381)
        #expect(group.members[2].volume == 0.09000001102685928)
        #expect(group.members[2].muted == false)
        #expect(!group.isMultichannel)
    }

    @Test func updatesAddAndRemoveChangeOneMember() throws {
        var group = CastGroup.applying(try capture("multizone-status-one-speaker.json"), to: nil)
        #expect(group?.members.count == 1)
        group = CastGroup.applying(try capture("device-added.json"), to: group)
        #expect(group?.members.map(\.name) == ["Living Room speaker", "Amplifier"])
        #expect(group?.members.last?.volume == 0.24)
        // The same id again: in place, not a second member.
        group = CastGroup.applying(try capture("device-added.json"), to: group)
        #expect(group?.members.count == 2)
        group = CastGroup.applying(.deviceUpdated(MultizoneDeviceMessage(device: MultizoneDevice(deviceId: "123456", volume: Volume(level: 0.6)))), to: group)
        #expect(group?.members.last?.volume == 0.6)
        #expect(group?.members.last?.name == "Amplifier", "an update that leaves the name out keeps it")
        #expect(group?.members.last?.muted == false)
        group = CastGroup.applying(.deviceRemoved(MultizoneDeviceRemoved(deviceId: "123456")), to: group)
        #expect(group?.members.map(\.name) == ["Living Room speaker"])
        // Removing a member the group does not have changes nothing.
        #expect(CastGroup.applying(try capture("device-removed.json"), to: group) == group)
    }

    @Test func aLoneSpeakerHearingAboutItselfIsNoGroup() throws {
        #expect(CastGroup.applying(try capture("device-updated-lone-display.json"), to: nil) == nil)
        #expect(CastGroup.applying(try capture("device-removed.json"), to: nil) == nil)
        #expect(CastGroup.applying(.unknown(type: "CASTING_GROUPS", payload: [:]), to: nil) == nil)
    }

    @Test func membersAreFoundByIdWithOrWithoutDashesAndByName() throws {
        let group = try #require(CastGroup.applying(try capture("group-status-three-speakers.json"), to: nil))
        #expect(group.member(named: "71D8C580BBD0166B72F10071A427B6CB")?.name == "Zolder")
        #expect(group.member(named: "d4063db0-253e-246c-9d66-d8f7fda77a6a")?.name == "Studeerkamer")
        #expect(group.member(named: "slaapkamer")?.id == "0256c1dd-13b4-4c80-849b-281970d02d11")
        #expect(group.member(named: "Kelder") == nil)
        #expect(group.members[0].matches(deviceID: "71d8c580bbd0166b72f10071a427b6cb"))
        #expect(!group.members[0].matches(deviceID: "d4063db0253e246c9d66d8f7fda77a6a"))
    }
}
