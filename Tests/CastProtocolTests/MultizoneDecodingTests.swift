// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import Foundation
import Testing

@testable import CastProtocol

/// The multizone namespace read the way a received frame is: the odd shapes leaders send
/// (the real captures are in RealDeviceCaptureTests) lose only the part that cannot be read.
@Suite struct MultizoneDecoding {
    func decode(_ text: String, dropped: inout [DroppedPart]) throws -> MultizoneMessage {
        let message = CastMessage(source: "receiver-0", destination: "*", namespace: CastNamespace.multizoneURN, utf8: text)
        guard case .multizone(let m) = try message.decoded(dropped: &dropped) else {
            Issue.record("not read as multizone: \(text)")
            return .unknown(type: "", payload: .null)
        }
        return m
    }

    func decode(_ text: String) throws -> MultizoneMessage {
        var dropped: [DroppedPart] = []
        return try decode(text, dropped: &dropped)
    }

    @Test func aMemberWithoutVolumeOrNameIsStillAMember() throws {
        let m = try decode(
            #"{"type":"MULTIZONE_STATUS","requestId":4,"status":{"devices":[{"deviceId":"a-b"},{"deviceId":"c-d","name":"Kitchen","capabilities":196612}]}}"#)
        guard case .multizoneStatus(let s) = m else {
            Issue.record("\(m)")
            return
        }
        #expect(s.requestId == 4)
        #expect(s.status?.devices?.map(\.deviceId) == ["a-b", "c-d"])
        #expect(s.status?.devices?.first?.volume == nil)
        #expect(s.status?.devices?.first?.name == nil)
        #expect(s.status?.isMultichannel == nil)
    }

    @Test func extraFieldsAreIgnored() throws {
        let m = try decode(
            #"{"type":"MULTIZONE_STATUS","requestId":0,"status":{"devices":[{"deviceId":"x","name":"A","volume":{"level":0.5,"muted":false,"stepInterval":0.02},"castGroupRole":"LEADER","playbackSession":{"id":1}}],"isMultichannel":true,"groupUuid":"g"},"sessionId":"s"}"#
        )
        guard case .multizoneStatus(let s) = m else {
            Issue.record("\(m)")
            return
        }
        #expect(s.status?.devices?.first?.volume?.level == 0.5)
        #expect(s.status?.isMultichannel == true)
    }

    @Test func oneDeviceObjectWhereAnArrayBelongsIsOneMember() throws {
        var dropped: [DroppedPart] = []
        let m = try decode(#"{"type":"MULTIZONE_STATUS","status":{"devices":{"deviceId":"solo","name":"Den"}}}"#, dropped: &dropped)
        guard case .multizoneStatus(let s) = m else {
            Issue.record("\(m)")
            return
        }
        #expect(s.status?.devices?.map(\.name) == ["Den"])
        #expect(s.requestId == nil)
    }

    @Test func aMemberWithoutAnIdIsLeftOutAndNamed() throws {
        var dropped: [DroppedPart] = []
        let m = try decode(
            #"{"type":"MULTIZONE_STATUS","requestId":1,"status":{"devices":[{"name":"ghost"},{"deviceId":"k","name":"Kitchen"},"junk"]}}"#, dropped: &dropped)
        guard case .multizoneStatus(let s) = m else {
            Issue.record("\(m)")
            return
        }
        #expect(s.status?.devices?.map(\.deviceId) == ["k"])
        #expect(dropped.map(\.path) == ["status.devices.[0]", "status.devices.[2]"])
    }

    @Test func devicesThatAreNeitherArrayNorObjectLeaveAnEmptyStatus() throws {
        var dropped: [DroppedPart] = []
        let m = try decode(#"{"type":"MULTIZONE_STATUS","status":{"devices":"none","isMultichannel":"true"}}"#, dropped: &dropped)
        guard case .multizoneStatus(let s) = m else {
            Issue.record("\(m)")
            return
        }
        #expect(s.status?.devices == nil)
        #expect(s.status?.isMultichannel == true)
        #expect(dropped.map(\.path) == ["status.devices"])
    }

    @Test func volumeAsTextIsANumber() throws {
        let m = try decode(#"{"type":"DEVICE_UPDATED","device":{"deviceId":"k","volume":{"level":"0.25","muted":0}}}"#)
        guard case .deviceUpdated(let d) = m else {
            Issue.record("\(m)")
            return
        }
        #expect(d.device.volume?.level == 0.25)
        #expect(d.device.volume?.muted == false)
        #expect(d.requestId == nil)
    }

    @Test func otherTypesAreKeptAsTheyCame() throws {
        let m = try decode(#"{"type":"CASTING_GROUPS","requestId":2,"status":{"groups":[{"groupId":"g","name":"Home"}]}}"#)
        guard case .unknown(let type, let payload) = m else {
            Issue.record("\(m)")
            return
        }
        #expect(type == "CASTING_GROUPS")
        #expect(m.requestId == 2)
        #expect(payload["status"]?["groups"]?.arrayValue?.first?["name"]?.stringValue == "Home")
    }

    @Test func aRemovedMemberWithoutItsIdIsAnError() {
        #expect(throws: CastProtocolError.self) { try decode(#"{"type":"DEVICE_REMOVED","requestId":0}"#) }
    }

    @Test func writtenAndReadBack() throws {
        let status = MultizoneMessage.multizoneStatus(
            MultizoneStatusMessage(
                requestId: 7,
                status: MultizoneStatus(
                    devices: [MultizoneDevice(deviceId: "1-2", name: "Kitchen", capabilities: 4, volume: Volume(level: 0.4, muted: false))],
                    isMultichannel: false)))
        for message in [
            status, .getStatus(MultizoneStatusRequest(requestId: 3)), .deviceRemoved(MultizoneDeviceRemoved(deviceId: "1-2")),
            .deviceAdded(MultizoneDeviceMessage(device: MultizoneDevice(deviceId: "9"))),
        ] {
            let text = CastJSON.encode(message)
            #expect(try decode(text) == message, "\(text)")
        }
        #expect(CastJSON.encode(MultizoneMessage.getStatus(MultizoneStatusRequest(requestId: 3))) == #"{"requestId":3,"type":"GET_STATUS"}"#)
    }
}
