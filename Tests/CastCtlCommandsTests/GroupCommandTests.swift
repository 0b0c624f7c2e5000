// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// castctl's speaker-group words: the options (`volume --member`, `receiver --group`), the
// members line of `status` and what `watch` says when the members change.
import ArgumentParser
import CastClient
import XCTest

@testable import CastCtlCommands

final class GroupCommandTests: XCTestCase {
    let kitchen = CastGroupMember(id: "0a0a0a0a-0a0a-0a0a-0a0a-0a0a0a0a0a0a", name: "Kitchen speaker", capabilities: 2060, volume: 0.4, muted: false)
    let hall = CastGroupMember(id: "0b0b0b0b-0b0b-0b0b-0b0b-0b0b0b0b0b0b", name: "Hall", capabilities: 2060, volume: 0.6, muted: true)

    func usageError(_ args: [String]) -> String? {
        do {
            _ = try CastCtl.parseForExecution(args)
            return nil
        } catch {
            XCTAssertEqual(CastCtl.exitStatus(for: error), 2, "\(args)")
            return CastCtl.fullMessage(for: error)
        }
    }

    func testVolumeTakesAMemberButNotWithStream() throws {
        let c = try XCTUnwrap(try CastCtl.parseForExecution(["volume", "0.3", "--member", "Kitchen speaker", "--device", "g"]) as? VolumeCommand)
        XCTAssertEqual(c.member, "Kitchen speaker")
        XCTAssertEqual(c.level, 0.3)
        XCTAssertTrue(usageError(["volume", "0.3", "--member", "Hall", "--stream", "--device", "g"])?.contains("--member") == true)
        // The quick reader leaves --member to ArgumentParser, and fills the field when absent.
        XCTAssertNil(QuickCommandLine.parse(["volume", "0.3", "--member", "Hall", "--device", "g"]))
        XCTAssertNil((QuickCommandLine.parse(["volume", "0.3", "--device", "g"]) as? VolumeCommand)?.member)
    }

    func testReceiverGroupNeedsItsMembers() throws {
        let c = try XCTUnwrap(try CastCtl.parseForExecution(["receiver", "--group", "Downstairs", "--members", "Kitchen speaker, Hall"]) as? ReceiverCommand)
        XCTAssertEqual(c.memberNames, ["Kitchen speaker", "Hall"])
        XCTAssertTrue(usageError(["receiver", "--group", "Downstairs"])?.contains("--members") == true)
        XCTAssertTrue(usageError(["receiver", "--members", "A,B"])?.contains("--group") == true)
        XCTAssertTrue(usageError(["receiver", "--group", "G", "--members", "A,a"])?.contains("once") == true)
        XCTAssertTrue(usageError(["receiver", "--group", " ", "--members", "A"])?.contains("name") == true)
    }

    func testTheMembersLine() {
        XCTAssertEqual(GroupReport(CastGroup(members: [kitchen, hall])).line, "Members: Kitchen speaker · 40 %, Hall · 60 % (muted)")
        XCTAssertEqual(GroupReport(CastGroup(members: [], isMultichannel: true)).line, "Members: none (multichannel)")
    }

    func testWatchSaysWhoJoinedLeftOrChangedVolume() {
        let both = CastGroup(members: [kitchen, hall])
        XCTAssertEqual(GroupReport.changes(from: nil, to: nil), [])
        XCTAssertEqual(GroupReport.changes(from: nil, to: both), ["Members: Kitchen speaker · 40 %, Hall · 60 % (muted)"])
        var quieter = kitchen
        quieter.volume = 0.1
        XCTAssertEqual(GroupReport.changes(from: both, to: CastGroup(members: [quieter, hall])), ["Kitchen speaker: volume 10 %"])
        XCTAssertEqual(GroupReport.changes(from: both, to: CastGroup(members: [kitchen])), ["Hall left the group"])
        XCTAssertEqual(GroupReport.changes(from: CastGroup(members: [kitchen]), to: both), ["Hall joined the group"])
        XCTAssertEqual(GroupReport.changes(from: both, to: both), [])
        XCTAssertEqual(GroupReport.changes(from: both, to: nil), ["the device no longer reports a group"])
    }
}
