// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastDiscovery
import CastProtocol
import CastReceiver
import Foundation
import XCTest

@testable import AppModel

/// Speaker groups headless (AppModel+Group.swift) against a simulated group (CastReceiver's
/// GroupSimulation: "Upstairs" of Kitchen and Hall, each speaker a receiver of its own),
/// listed with the ids mDNS gives them (the members' multizone ids without dashes): the session's speakers and their volumes, a speaker's own volume set on its own
/// connection, a speaker that leaves, and Play on Group.
@MainActor
final class GroupModelTests: XCTestCase {
    var simulation: GroupSimulation!
    var lone: Harness!
    var model: AppModel!
    let kitchenID = "0a0a0a0a-0a0a-0a0a-0a0a-0a0a0a0a0a0a"
    let hallID = "0b0b0b0b-0b0b-0b0b-0b0b-0b0b0b0b0b0b"
    let song = "https://example.com/radio.mp3"

    override func setUp() async throws {
        lone = try await Harness.start(name: "Bedroom")
        func config(_ name: String, uuid: String) -> ReceiverConfiguration {
            var c = ReceiverConfiguration()
            c.port = 0
            c.friendlyName = name
            c.uuid = uuid
            return c
        }
        var kitchen = config("Kitchen", uuid: kitchenID)
        ReceiverKind.speaker.configure(&kitchen)
        var hall = config("Hall", uuid: hallID)
        ReceiverKind.speaker.configure(&hall)
        var leader = config("Upstairs", uuid: "0c0c0c0c-0c0c-0c0c-0c0c-0c0c0c0c0c0c")
        leader.model = CastDevice.groupModel
        simulation = GroupSimulation(leader: leader, members: [kitchen, hall])
        try await simulation.start()
        model = lone.model()
        // Listed with the ids mDNS gives them (the uuid without dashes). As listed by mDNS they
        // would count as groups here, where every receiver has a port other than 8009 (real
        // speakers are on 8009); listed by address, only the group's model says it is one.
        for (server, name) in [(simulation.leader, "Upstairs"), (simulation.members[0], "Kitchen"), (simulation.members[1], "Hall")] {
            let id = server.configuration.uuid.replacingOccurrences(of: "-", with: "")
            model.fold(
                .added(
                    CastDevice(
                        id: id, friendlyName: name, model: name == "Upstairs" ? CastDevice.groupModel : "Google Nest Mini",
                        host: "127.0.0.1", port: try XCTUnwrap(server.port), source: .manual)))
        }
        _ = model.addDevice(address: lone.address, name: "Bedroom")
    }

    override func tearDown() async throws {
        await model.disconnect()
        await simulation.stop()
        await lone.stop()
    }

    func device(_ name: String) throws -> DeviceInfo { try XCTUnwrap(model.devices.first { $0.friendlyName == name }) }

    func testTheSessionListsTheSpeakersAndSetsOneSpeakersOwnVolume() async throws {
        try await waitUntil("the listed group asked for its speakers") {
            self.model.memberSummary(ofGroup: try self.device("Upstairs").id) != nil
        }
        XCTAssertEqual(model.memberSummary(ofGroup: try device("Upstairs").id), "Speakers: \u{2068}Kitchen\u{2069}, \u{2068}Hall\u{2069}")
        await model.connect(to: try device("Upstairs"))
        try await waitUntil("the speakers in the session") { self.model.groupMembers.count == 2 }
        XCTAssertEqual(model.groupMembers.map(\.label), ["Kitchen · 60 %", "Hall · 60 %"])
        XCTAssertEqual(model.groupMembers.map(\.address), [try device("Kitchen").address, try device("Hall").address])

        await model.setMemberVolume(kitchenID, to: 0.25)
        let kitchen = try await simulation.members[0].receiverStatus().volume?.level
        let hall = try await simulation.members[1].receiverStatus().volume?.level
        XCTAssertEqual(try XCTUnwrap(kitchen), 0.25, accuracy: 0.001, "set on the speaker itself")
        XCTAssertEqual(try XCTUnwrap(hall), 0.6, accuracy: 0.001, "the other speaker is untouched")
        try await waitUntil("the group to report it") { self.model.groupMembers.first?.label == "Kitchen · 25 %" }
        XCTAssertNil(model.notice)
    }

    func testASpeakerThatLeavesIsSaid() async throws {
        await model.connect(to: try device("Upstairs"))
        try await waitUntil("the speakers in the session") { self.model.groupMembers.count == 2 }
        _ = try await simulation.removeMember("Hall")
        try await waitUntil("the speaker gone") { self.model.groupMembers.map(\.name) == ["Kitchen"] }
        XCTAssertEqual(model.notice?.text, "Hall left the group Upstairs.")
    }

    func testALoneSpeakerHasNoGroup() async throws {
        await model.connect(to: try device("Bedroom"))
        await model.perform(.castSample)
        try await waitUntil("the sample plays") { self.model.mediaStatus?.playerState == .playing }
        XCTAssertTrue(model.groupMembers.isEmpty)
        XCTAssertNil(model.group)
    }

    func testPlayOnGroupMovesToTheGroupThatHoldsBothSpeakers() async throws {
        // Another sender plays a song on Kitchen alone; the window joins it there.
        let phone = CastSession(device: try device("Kitchen").address, configuration: lone.client)
        _ = try await phone.connect()
        _ = try await phone.start(appID: CastAppID.defaultMediaReceiver)
        _ = try await phone.media.load(MediaInformation(contentId: song, contentType: "audio/mpeg", duration: 600))
        await model.connect(to: try device("Kitchen"))
        try await waitUntil("the song plays on Kitchen") { self.model.mediaStatus?.playerState == .playing }
        await phone.leave()
        let leaderBefore = try await simulation.leader.mediaStatus()
        XCTAssertTrue(leaderBefore.isEmpty, "a speaker playing alone does not make its group play")

        // Bedroom is in no group: said, and Kitchen plays on.
        let bedroom = try XCTUnwrap(model.moveTargets.firstIndex { $0.friendlyName == "Bedroom" })
        await model.perform(AppAction(.playOnGroup, .int(bedroom)))
        XCTAssertEqual(model.notice?.headline, "Kitchen and Bedroom are not in a speaker group.")
        XCTAssertEqual(model.connection, .connected(deviceID: try device("Kitchen").id))

        let hall = try XCTUnwrap(model.moveTargets.firstIndex { $0.friendlyName == "Hall" })
        await model.perform(AppAction(.playOnGroup, .int(hall)))
        XCTAssertEqual(model.connection, .connected(deviceID: try device("Upstairs").id), "the window follows the group")
        let onGroup = try await simulation.leader.mediaStatus().first
        XCTAssertEqual(onGroup?.playerState, .playing)
        XCTAssertEqual(onGroup?.media?.contentId, song)
        let onKitchen = try await simulation.members[0].mediaStatus().first
        XCTAssertEqual(onKitchen?.playerState, .playing, "the speaker plays the group's playback (its own was not stopped after)")
    }
}
