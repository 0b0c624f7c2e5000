// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import Foundation
import Testing

@_spi(Reference) @testable import CastProtocol

/// The bytes every wire model writes, held against a file captured from the hand-written
/// writers before the models were generated from their declarations (Fixtures/golden). A
/// change to a declaration, to the generator or to JSONOut that moves a key, drops a member
/// or spells a number differently shows up here as a diff, not only as a disagreement
/// between two paths that could both have moved.
///
/// To capture the file again on purpose: CASTDECK_WRITE_WIRE_GOLDEN=path swift test --filter WireGolden
@Suite struct WireGolden {
    typealias Full = DirectWritersMatchCodable

    /// Every message with a direct writer, once with every member set (which reaches every
    /// model: status, media, metadata, tracks, style, breaks, clips, queue, volume, ...) and
    /// once with the fewest.
    static var messages: [(String, MediaMessage)] {
        var load = LoadRequest(
            requestId: 4, media: Full.fullMedia, autoplay: false, currentTime: 2, activeTrackIds: [1],
            playbackRate: 0.5, customData: Full.custom)
        load.sessionId = "s"
        load.mediaSessionId = 1
        load.queueData = Full.fullStatus.queueData
        load.credentials = "c"
        load.credentialsType = "ct"
        var session = MediaSessionRequest(requestId: 5, mediaSessionId: 1, customData: Full.custom, options: 2)
        session.sessionId = "s"
        var metadata = MediaMetadata(metadataType: .unknown(42))
        metadata.originalAirdate = "2001-01-01"
        return [
            (
                "status",
                .mediaStatus(
                    MediaStatusMessage(
                        requestId: 3, status: [Full.fullStatus, MediaStatus(mediaSessionId: 1, playerState: .idle)],
                        customData: Full.custom))
            ),
            ("load", .load(load)),
            ("play", .play(session)), ("pause", .pause(session)), ("stop", .stop(session)), ("skipAd", .skipAd(session)),
            ("getStatus", .getStatus(session)), ("queueNext", .queueNext(session)), ("queuePrev", .queuePrev(session)),
            (
                "seek",
                .seek(
                    SeekRequest(
                        requestId: 6, mediaSessionId: 1, currentTime: 10, relativeTime: -5, resumeState: .playbackPause,
                        customData: Full.custom))
            ),
            (
                "rate",
                .setPlaybackRate(
                    SetPlaybackRateRequest(
                        requestId: 7, mediaSessionId: 1, playbackRate: 2, relativePlaybackRate: 0.25,
                        customData: Full.custom))
            ),
            ("empty status", .mediaStatus(MediaStatusMessage(requestId: nil, status: []))),
            ("bare get status", .getStatus(MediaSessionRequest(requestId: 1, mediaSessionId: nil))),
            ("bare rate", .setPlaybackRate(SetPlaybackRateRequest(requestId: 1, mediaSessionId: nil))),
            ("bare seek", .seek(SeekRequest(requestId: 1, mediaSessionId: nil))),
            ("bare load", .load(LoadRequest(requestId: 1, media: MediaInformation(contentId: "", streamType: nil)))),
            ("odd metadata", .load(LoadRequest(requestId: 2, media: MediaInformation(contentId: "x", metadata: metadata)))),
        ]
    }

    static func written() throws -> String {
        try messages.map { name, message in
            guard let text = try CastJSONWriter.encodeDirectly(message) else { throw CastProtocolError.missingField(name) }
            return "\(name)\t\(text)\n"
        }.joined()
    }

    @Test func directWritersWriteTheGoldenBytes() throws {
        let text = try Self.written()
        if let path = ProcessInfo.processInfo.environment["CASTDECK_WRITE_WIRE_GOLDEN"] {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let golden = try Fixtures.text("golden/wire-models.txt")
        let got = text.split(separator: "\n"), want = golden.split(separator: "\n")
        #expect(got.count == want.count)
        for (g, w) in zip(got, want) { #expect(g == w) }
    }

    /// The Codable path writes the same bytes, and both readers make the values back from them.
    @Test func codableAndReadersAgreeWithTheGolden() throws {
        for (name, message) in Self.messages {
            let direct = try #require(try CastJSONWriter.encodeDirectly(message), "\(name)")
            #expect(CastJSON.encodeThroughCodable(message) == direct, "\(name)")
            let tree = try CastJSON.decodeThroughTree(MediaMessage.self, fromUTF8: Array(direct.utf8), namespace: "media")
            #expect(tree == message, "\(name): tree")
            if case .mediaStatus = message {
                #expect(CastJSON.readMediaStatus(Array(direct.utf8)) == message, "\(name): one pass")
            }
        }
    }
}
