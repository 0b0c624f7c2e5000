// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import Foundation
import Testing

@testable import CastProtocol

/// Every fixture under Fixtures/<namespace>/ is a message written as the protocol reference
/// shows it. Each must decode to the right case and encode back to the same JSON.
enum Fixtures {
    static let root: URL = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

    static func all() -> [String] {
        let fm = FileManager.default
        var out: [String] = []
        for dir in (try? fm.contentsOfDirectory(atPath: root.path)) ?? [] {
            for file in (try? fm.contentsOfDirectory(atPath: root.appendingPathComponent(dir).path)) ?? [] where file.hasSuffix(".json") {
                out.append("\(dir)/\(file)")
            }
        }
        return out.sorted()
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
    }

    static func namespace(of name: String) -> String {
        switch name.split(separator: "/").first {
        case "connection": CastNamespace.connectionURN
        case "heartbeat": CastNamespace.heartbeatURN
        case "receiver": CastNamespace.receiverURN
        default: CastNamespace.mediaURN
        }
    }

    static func message(_ name: String) throws -> CastMessage {
        CastMessage(source: "sender-1", destination: "receiver-0", namespace: namespace(of: name), utf8: try text(name))
    }
}

func json(_ text: String) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
}

/// Re-encodes a decoded namespace message to JSON text.
func reencode(_ message: NamespacedMessage) -> String {
    switch message {
    case .connection(let m): CastJSON.encode(m)
    case .heartbeat(let m): CastJSON.encode(m)
    case .receiver(let m): CastJSON.encode(m)
    case .media(let m): CastJSON.encode(m)
    case .multizone(let m): CastJSON.encode(m)
    case .deviceAuth, .custom: ""
    }
}

@Suite struct FixtureRoundTrip {
    @Test func thereAreFixturesForEveryNamespace() {
        let names = Fixtures.all()
        #expect(names.count >= 50)
        for ns in ["connection/", "heartbeat/", "receiver/", "media/"] {
            #expect(names.contains { $0.hasPrefix(ns) }, "no fixture for \(ns)")
        }
    }

    @Test(arguments: Fixtures.all())
    func decodesAndEncodesBackToTheSameJSON(name: String) throws {
        let original = try Fixtures.text(name)
        let decoded = try Fixtures.message(name).decoded()
        // Nothing in a fixture is unknown to the models.
        switch decoded {
        case .connection(.unknown), .heartbeat(.unknown), .receiver(.unknown), .media(.unknown):
            Issue.record("\(name) decoded as an unknown message")
        default: break
        }
        let again = reencode(decoded)
        let a = try json(original), b = try json(again)
        #expect(a.semanticallyEquals(b), "\(name) changed on the round trip:\n\(original)\n→ \(again)")
        // And through the protobuf envelope and framing as well.
        let framed = try CastMessage(source: "a", destination: "b", namespace: Fixtures.namespace(of: name), utf8: again).framed()
        var decoder = CastFrameDecoder()
        decoder.append(framed)
        let back = try #require(try decoder.nextMessage())
        #expect(back.utf8 == again)
    }

    @Test(arguments: [
        ("connection/connect-full.json", "CONNECT"), ("connection/close.json", "CLOSE"),
        ("heartbeat/ping.json", "PING"), ("receiver/launch.json", "LAUNCH"),
        ("receiver/app-availability.json", "GET_APP_AVAILABILITY"), ("media/load.json", "LOAD"),
        ("media/queue-update-jump.json", "QUEUE_UPDATE"), ("media/load-failed.json", "LOAD_FAILED"),
    ])
    func decodesToTheRightCase(name: String, type: String) throws {
        let decoded = try Fixtures.message(name).decoded()
        switch (decoded, type) {
        case (.connection(.connect(let c)), "CONNECT"):
            #expect(c.senderInfo?.platform == 4)
            #expect(c.userAgent?.hasPrefix("Mozilla") == true)
        case (.connection(.close(let c)), "CLOSE"): #expect(c.reasonCode == 5)
        case (.heartbeat(.ping), "PING"): break
        case (.receiver(.launch(let l)), "LAUNCH"):
            #expect(l.appId == CastAppID.defaultMediaReceiver)
            #expect(l.requestId == 2)
        case (.receiver(.appAvailability(let a)), "GET_APP_AVAILABILITY"):
            #expect(a.availability["CC1AD845"] == "APP_AVAILABLE")
        case (.media(.load(let l)), "LOAD"):
            #expect(l.media.breakClips?.first?.whenSkippable == 5)
            #expect(l.media.textTrackStyle?.edgeType == .outline)
        case (.media(.queueUpdate(let q)), "QUEUE_UPDATE"): #expect(q.jump == 1)
        case (.media(.loadFailed(let e)), "LOAD_FAILED"):
            #expect(e.detailedErrorCode == 104)
            #expect(e.reason == .genericLoadError)
        default: Issue.record("\(name) decoded as \(decoded)")
        }
    }
}

@Suite struct RealisticMediaStatus {
    func status() throws -> MediaStatus {
        let decoded = try Fixtures.message("media/media-status-realistic.json").decoded()
        guard case .media(.mediaStatus(let m)) = decoded else { throw CastProtocolError.missingField("status") }
        #expect(m.requestId == 0)
        #expect(RequestID.isUnsolicited(m.requestId))
        return try #require(m.status.first)
    }

    @Test func everyPartIsRead() throws {
        let s = try status()
        #expect(s.mediaSessionId == 7)
        #expect(s.playerState == .playing)
        #expect(s.playbackRate == 1.5)
        #expect(s.activeTrackIds == [2, 11])
        #expect(s.volume == Volume(level: 0.8, muted: false))
        #expect(s.supports(.playbackRate) && s.supports(.skipAd) && s.supports(.editTracks) && s.supports(.seek))
        #expect(!s.supports(.queueNext))
        let media = try #require(s.media)
        #expect(media.streamType == .buffered)
        #expect(media.duration == 888)
        #expect(media.metadata?.metadataType == .movie)
        #expect(media.metadata?.images?.count == 5)
        #expect(media.metadata?.images?.last?.width == nil)
        #expect(media.tracks?.count == 3)
        #expect(media.tracks?.filter { $0.type == .text }.map(\.language) == ["en-US", "fa-IR"])
        #expect(media.tracks?[2].customData?["channels"]?.intValue == 6)
        #expect(media.breaks?.map(\.id) == ["pre-1", "mid-1"])
        #expect(media.breaks?.map(\.isWatched) == [true, false])
        #expect(media.breakClips?.count == 4)
        #expect(media.breakClips?[1].whenSkippable == nil)
        let style = try #require(media.textTrackStyle)
        #expect(style.fontStyle == .bold)
        #expect(style.windowType == .roundedCorners)
        #expect(style.windowRoundedCornerRadius == 12)
        #expect(CastColor(hex: style.backgroundColor ?? "") == CastColor(red: 0, green: 0, blue: 0, alpha: 0x80))
        let brk = try #require(s.breakStatus)
        #expect(brk.breakId == "mid-1" && brk.breakClipId == "clip-3")
        #expect(brk.currentBreakClipTime == 2.25 && brk.whenSkippable == 5)
        #expect(s.customData == ["source": "castdeck-fixture"])
    }

    @Test func mergingKeepsMediaOfTheSameSession() throws {
        let full = try status()
        var next = MediaStatus(mediaSessionId: 7, playerState: .paused)
        #expect(next.merging(previous: full).media == full.media)
        next.mediaSessionId = 8
        #expect(next.merging(previous: full).media == nil)
    }
}
