// SPDX-FileCopyrightText: CastDeck contributors
// SPDX-License-Identifier: GPL-3.0-or-later

import XCTest

@testable import CastDiscovery

final class TXTRecordTests: XCTestCase {
    let realRecord = [
        "id=9569eea099be6d71923747fbf22da8dd", "cd=658594ACE5BC795F2DC5D9D58DFEF605", "rm=04124F56BF84DCB9",
        "ve=05", "md=Chromecast", "ic=/setup/icon.png", "fn=Living Room TV", "ca=201221", "st=1",
        "bs=FA8FCA7B4DCD", "nf=1", "rs=Now playing: Big Buck Bunny",
    ]

    func testEveryCastFieldIsRead() {
        let txt = TXTRecord.parse(strings: realRecord)
        let device = TXTRecord.device(txt: txt, serviceName: "Chromecast-9569eea099be6d71923747fbf22da8dd", host: "10.0.0.5", port: 8009)
        XCTAssertEqual(device.id, "9569eea099be6d71923747fbf22da8dd")
        XCTAssertEqual(device.friendlyName, "Living Room TV")
        XCTAssertEqual(device.model, "Chromecast")
        XCTAssertEqual(device.iconPath, "/setup/icon.png")
        XCTAssertEqual(device.statusText, "Now playing: Big Buck Bunny")
        XCTAssertTrue(device.isBusy)
        XCTAssertFalse(device.isGroup)
        XCTAssertEqual(device.capabilities.rawValue, 201221)
        XCTAssertTrue(device.capabilities.contains(.videoOut))
        XCTAssertTrue(device.capabilities.contains(.audioOut))
        XCTAssertFalse(device.capabilities.contains(.videoIn))
        XCTAssertEqual(device.txt["bs"], "FA8FCA7B4DCD")
        XCTAssertEqual(device.txt["rm"], "04124F56BF84DCB9")
        XCTAssertEqual(device.txt.count, 12)
        XCTAssertEqual(device.address, "10.0.0.5:8009")
    }

    func testToleratesOddEntries() {
        let txt = TXTRecord.parse([
            Array("FN=Upper".utf8), Array("flag".utf8), Array("=novalue".utf8), [],
            Array("fn=second".utf8), [0x72, 0x73, 0x3D, 0xFF],
        ])
        XCTAssertEqual(txt["fn"], "Upper", "keys are case-insensitive and the first one wins")
        XCTAssertEqual(txt["flag"], "")
        XCTAssertNil(txt[""])
        XCTAssertEqual(txt["rs"], "\u{FFFD}", "bad UTF-8 is replaced, not dropped")
    }

    func testMissingFieldsFallBack() {
        let device = TXTRecord.device(txt: ["ca": "junk", "st": "0"], serviceName: "Odd Device", host: "h", port: 8009)
        XCTAssertEqual(device.id, "name:Odd Device")
        XCTAssertEqual(device.friendlyName, "Odd Device")
        XCTAssertEqual(device.capabilities, [])
        XCTAssertNil(device.statusText)
        XCTAssertFalse(device.isBusy)
    }

    func testIDNormalisation() {
        XCTAssertEqual(TXTRecord.normalizedID("9569EEA0-99BE-6D71-9237-47FBF22DA8DD"), "9569eea099be6d71923747fbf22da8dd")
        XCTAssertNil(TXTRecord.normalizedID("not-a-uuid"))
        XCTAssertNil(TXTRecord.normalizedID("9569eea099be6d71923747fbf22da8d"))
    }

    func testGroupDetection() {
        let byModel = TXTRecord.device(txt: ["md": "Google Cast Group", "fn": "Downstairs"], serviceName: "g", host: "h", port: 8009)
        XCTAssertTrue(byModel.isGroup)
        let byPort = TXTRecord.device(txt: ["md": "Google Home", "fn": "Downstairs"], serviceName: "g", host: "h", port: 32187)
        XCTAssertTrue(byPort.isGroup)
        let single = TXTRecord.device(txt: ["md": "Google Home", "fn": "Kitchen"], serviceName: "k", host: "h", port: 8009)
        XCTAssertFalse(single.isGroup)
        // The port rule is for services found on the network: a port typed by hand, or the
        // demo receiver's free port, does not make a device a group.
        let added = CastDevice(
            id: "a", friendlyName: "TV", model: "Chromecast", host: "h", port: 8010,
            statusText: nil, isBusy: false, source: .manual)
        XCTAssertFalse(added.isGroup)
    }

    func testPublisherRecordRoundTrips() throws {
        let record = CastServiceRecord(friendlyName: "Test TV", model: "Google Cast Group", port: 42001, statusText: "Idle")
        try record.validate()
        XCTAssertNotNil(TXTRecord.normalizedID(record.id))
        XCTAssertEqual(record.serviceName, "Google-Cast-Group-\(record.id)")
        let device = TXTRecord.device(txt: TXTRecord.parse(strings: record.txtEntries), serviceName: record.serviceName, host: "h", port: record.port)
        XCTAssertEqual(device.id, record.id)
        XCTAssertEqual(device.friendlyName, "Test TV")
        XCTAssertEqual(device.statusText, "Idle")
        XCTAssertEqual(device.txt["ve"], "05")
        XCTAssertEqual(device.txt["cd"]?.count, 32)
        XCTAssertEqual(device.txt["bs"]?.count, 12)
        XCTAssertTrue(device.isGroup)
        var bad = record
        bad.id = "xyz"
        XCTAssertThrowsError(try bad.validate()) { XCTAssertEqual($0 as? DiscoveryError, .invalidService("id \"xyz\" is not 32 hex digits")) }
    }
}
