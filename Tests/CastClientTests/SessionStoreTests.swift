import CastCore
import Foundation
import Testing

@testable import CastClient

/// Remembered sessions: the file written by earlier versions (Foundation's pretty-printed
/// JSON) still reads, and what is written now reads back equal.
@Suite struct SessionStoreFile {
    let store = SessionStore(fileURL: FileManager.default.temporaryDirectory
        .appendingPathComponent("castdeck-store-\(UUID().uuidString)/sessions.json"))

    @Test func readsTheEarlierFormat() throws {
        try FileManager.default.createDirectory(at: store.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("""
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
        """.utf8).write(to: store.fileURL)
        let s = try #require(store.session(forDevice: "10.77.0.1:33555"))
        #expect(s.appID == "CC1AD845" && s.sessionID == "811D3A16" && s.device == DeviceAddress(host: "10.77.0.1", port: 33555))
        #expect(s.savedAt == Date(timeIntervalSince1970: 1_795_406_687))
    }

    @Test func writesWhatItReads() throws {
        let saved = RememberedSession(deviceID: "tv", device: DeviceAddress(host: "::1", port: 8009), appID: "CC1AD845",
                                      sessionID: "a\"b", savedAt: Date(timeIntervalSince1970: 1_800_000_000))
        try store.save(saved)
        #expect(store.session(forDevice: "tv") == saved)
        try store.forget(deviceID: "tv")
        #expect(store.all().isEmpty)
    }
}
