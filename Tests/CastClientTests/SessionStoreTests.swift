// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastCore
import Foundation
import Testing

@testable import CastClient

/// Remembered sessions: the file written by earlier versions (Foundation's pretty-printed
/// JSON) still reads, and what is written now reads back equal.
@Suite struct SessionStoreFile {
    let store = SessionStore(
        fileURL: FileManager.default.temporaryDirectory
            .appendingPathComponent("castdeck-store-\(UUID().uuidString)/sessions.json"))

    @Test func readsTheEarlierFormat() throws {
        try FileManager.default.createDirectory(at: store.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(
            """
            {
              "10.77.0.1:33555" : {
                "appID" : "CC1AD845",
                "device" : {
                  "host" : "10.77.0.1",
                  "port" : 33555
                },
                "deviceID" : "10.77.0.1:33555",
                "savedAt" : "2026-11-23T04:04:47Z",
                "sessionID" : "811D3A16"
              }
            }
            """.utf8
        ).write(to: store.fileURL)
        let s = try #require(store.session(forDevice: "10.77.0.1:33555"))
        #expect(s.appID == "CC1AD845" && s.sessionID == "811D3A16" && s.device == DeviceAddress(host: "10.77.0.1", port: 33555))
        #expect(s.savedAt == Date(timeIntervalSince1970: 1_795_406_687))
    }

    @Test func aBadEntryLosesOnlyItself() throws {
        try FileManager.default.createDirectory(at: store.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(
            """
            {"good": {"appID": "CC1AD845", "device": {"host": "::1", "port": 8009}, "deviceID": "good",
                      "savedAt": "2026-11-23T04:04:47Z", "sessionID": "s"},
             "bad": {"appID": "CC1AD845", "device": {"host": "::1"}, "deviceID": "bad", "savedAt": "yesterday", "sessionID": "s"}}
            """.utf8
        ).write(to: store.fileURL)
        #expect(Array(store.all().keys) == ["good"])
    }

    @Test func writesWhatItReads() throws {
        let saved = RememberedSession(
            deviceID: "tv", device: DeviceAddress(host: "::1", port: 8009), appID: "CC1AD845",
            sessionID: "a\"b", savedAt: Date(timeIntervalSince1970: 1_800_000_000))
        try store.save(saved)
        #expect(store.session(forDevice: "tv") == saved)
        try store.forget(deviceID: "tv")
        #expect(store.all().isEmpty)
    }
}

/// The hand-written UTC timestamps agree with Foundation's ISO8601DateFormatter.
@Suite struct UTCTimestamps {
    @Test func formatAndParseAgreeWithFoundation() {
        let foundation = ISO8601DateFormatter()
        var rng = SystemRandomNumberGenerator()
        // 1970 to 2200, and the edges of months, leap days and the year 2000.
        var dates = (0..<2_000).map { _ in Date(timeIntervalSince1970: Double(Int.random(in: 0...7_258_118_400, using: &rng))) }
        dates += [0, 951_782_400, 951_868_799, 1_709_164_800, 4_107_542_399].map { Date(timeIntervalSince1970: $0) }
        for d in dates {
            let text = UTCTimestamp.format(d)
            #expect(text == foundation.string(from: d))
            #expect(UTCTimestamp.parse(text) == foundation.date(from: text))
        }
    }

    @Test func readsOtherISO8601FormsThroughFoundation() {
        #expect(UTCTimestamp.parse("2026-11-23T05:04:47+01:00") == Date(timeIntervalSince1970: 1_795_406_687))
    }

    @Test func rejectsWhatIsNotATime() {
        for bad in [
            "2026-02-31T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-23T24:00:00Z", "2026-11-23T04:04:4xZ",
            "yesterday", "", "2026-11-23 04:04:47Z",
        ] {
            #expect(UTCTimestamp.parse(bad) == nil, "\(bad)")
        }
    }
}
