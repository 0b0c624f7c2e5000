// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import Foundation
import Testing

@_spi(Reference) @testable import CastProtocol

/// `CastJSON.encode` writes JSON without Foundation; what it writes must be, byte for byte,
/// what Foundation's JSONEncoder (sorted keys, slashes unescaped) writes.
@Suite struct JSONWriterMatchesFoundation {
    func same<T: Encodable>(_ value: T, _ label: String) {
        #expect(CastJSON.encode(value) == CastJSON.encodeWithFoundation(value), "\(label)")
    }

    @Test func everyFixtureMessage() throws {
        for name in Fixtures.all() {
            let message = try Fixtures.message(name)
            switch try message.decoded() {
            case .connection(let m): same(m, name)
            case .heartbeat(let m): same(m, name)
            case .receiver(let m): same(m, name)
            case .media(let m): same(m, name)
            default: break
            }
        }
    }

    @Test func awkwardValues() {
        let strings = ["", "a\"b\\c/d", "\u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}", "فارسی 🎬 e\u{301}", "\u{2028}\u{2029}\u{FEFF}"]
        for s in strings {
            var metadata = MediaMetadata(metadataType: .movie, title: s, subtitle: s)
            metadata.latitude = 0.1
            metadata.longitude = -122.4194155
            same(MediaMessage.load(LoadRequest(requestId: 1, media: MediaInformation(contentId: s, metadata: metadata))), s)
        }
        let numbers: [Double] = [0, -0.0, 1, -1, 0.5, 1.5, 1e-7, 1e21, 1e22, 123456789.125, 1.0 / 3, 5e-324, 1.7976931348623157e308, 100, 2.5e10]
        for d in numbers {
            same(MediaMessage.seek(SeekRequest(requestId: 2, mediaSessionId: 1, currentTime: d)), "\(d)")
            same(JSONValue.array([.double(d), .int(Int64(d.isFinite && abs(d) < 1e18 ? d : 0))]), "\(d) tree")
        }
        same(JSONValue.object(["b": 1, "a": [true, false, nil], "B": "x", "aa": [:], "a1": ["z": 1, "y": [1.5]], "é": 1, "_": 0]), "keys")
        same(JSONValue.int(.min), "min")
        same(JSONValue.int(.max), "max")
    }

    /// Codable's less common shapes, which the writer handles apart from the usual ones:
    /// containers filled after later members (nested and super encoders), a key written twice,
    /// a single value that is itself an object and then gains a member, empty values.
    @Test func unusualContainerShapes() {
        same(Shapes(), "shapes")
        same([Shapes(), Shapes()], "array of shapes")
        same(["k": Shapes()], "dictionary of shapes")
        same(Empty(), "empty")
        same([Empty()], "array of empty")
    }

    struct Shapes: Encodable {
        enum K: String, CodingKey { case z, a, nested, list, dup, sup, m }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: K.self)
            var nested = c.nestedContainer(keyedBy: K.self, forKey: .nested)
            var list = c.nestedUnkeyedContainer(forKey: .list)
            try c.encode("last", forKey: .z)
            try nested.encode(2, forKey: .z)
            try nested.encode([1.5, 2], forKey: .a)
            try list.encode("x")
            var inner = list.nestedContainer(keyedBy: K.self)
            try list.encode(true)
            try inner.encode("in", forKey: .m)
            try c.encode(1, forKey: .dup)
            try c.encode("again", forKey: .dup)
            try c.encode(Optional<Int>.none, forKey: .a)
            let sup = c.superEncoder(forKey: .sup)
            var single = sup.singleValueContainer()
            try single.encode(["q": 1])
            try Tagged().encode(to: encoder)
        }
    }

    /// Writes a body through a single-value container, then a member beside it, as the
    /// `.unknown` message cases do.
    struct Tagged: Encodable {
        enum K: String, CodingKey { case type }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: K.self)
            try c.encode("TAG", forKey: .type)
        }
    }

    struct Empty: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    /// Every fixture of every namespace, mutated: whatever still decodes (strings with odd
    /// bytes, other numbers, unknown members and message types) must encode the same both ways.
    @Test func mutatedFixturesEncodeTheSame() throws {
        var compared = 0
        for (name, mutated) in try mutatedFixtures(seed: 11, each: 150) {
            switch try? mutated.decoded() {
            case .connection(let m)?: same(m, name)
            case .heartbeat(let m)?: same(m, name)
            case .receiver(let m)?: same(m, name)
            case .media(let m)?: same(m, name)
            default: continue
            }
            compared += 1
        }
        #expect(compared > 1000)
    }

    @Test func nonFiniteStillBecomesNull() {
        #expect(CastJSON.encode(JSONValue.double(.nan)) == "null")
        var status = MediaStatus(mediaSessionId: 1, playerState: .playing)
        status.currentTime = .infinity
        #expect(CastJSON.encode(MediaMessage.mediaStatus(MediaStatusMessage(requestId: 1, status: [status]))) == "null")
    }
}

/// The media status and the common commands have direct writers (JSONWriter+Models.swift);
/// they must write what the Codable writer writes, whatever fields are set.
@Suite struct DirectWritersMatchCodable {
    func same(_ message: MediaMessage, _ label: String) {
        let direct = try? CastJSONWriter.encodeDirectly(message)
        #expect(direct != nil, "\(label): no direct writer")
        #expect(direct == CastJSON.encodeThroughCodable(message), "\(label)")
        #expect(CastJSON.encode(message) == CastJSON.encodeWithFoundation(message), "\(label) against JSONEncoder")
        // A message made from the model carries the direct writer's bytes: the same text and frame.
        let built = CastMessage(source: "s", destination: "d", message)
        let fromText = CastMessage(source: "s", destination: "d", namespace: MediaMessage.namespace.urn, utf8: CastJSON.encode(message))
        #expect(built == fromText, "\(label): message")
        #expect((try? built.framed()) == (try? fromText.framed()), "\(label): frame")
    }

    /// Paths of optional members left nil anywhere in `value`: the values below must set all.
    func unset(_ value: Any, path: String = "") -> [String] {
        var missing: [String] = []
        for child in Mirror(reflecting: value).children {
            let name = path + "." + (child.label ?? "?")
            let inner = Mirror(reflecting: child.value)
            if inner.displayStyle == .optional {
                guard let wrapped = inner.children.first?.value else {
                    missing.append(name)
                    continue
                }
                missing += unsetInside(wrapped, path: name)
            } else {
                missing += unsetInside(child.value, path: name)
            }
        }
        return missing
    }

    private func unsetInside(_ value: Any, path: String) -> [String] {
        switch Mirror(reflecting: value).displayStyle {
        case .struct: return unset(value, path: path)
        case .collection: return Mirror(reflecting: value).children.flatMap { unsetInside($0.value, path: path + "[]") }
        default: return []  // enums, JSONValue trees, scalars
        }
    }

    static let custom: JSONValue = ["k": "v\"q", "n": [1, 2.5, nil, true]]

    static var fullMedia: MediaInformation {
        var metadata = MediaMetadata(metadataType: .musicTrack, title: "T", subtitle: "S", images: [CastImage(url: "u", width: 1, height: 2)])
        metadata.releaseDate = "2020"
        metadata.releaseYear = 2020
        metadata.studio = "st"
        metadata.seriesTitle = "se"
        metadata.season = 1
        metadata.episode = 2
        metadata.originalAirdate = "o"
        metadata.episodeTitle = "et"
        metadata.seasonNumber = 3
        metadata.episodeNumber = 4
        metadata.albumName = "an"
        metadata.albumArtist = "aa"
        metadata.artist = "ar"
        metadata.artistName = "arn"
        metadata.composer = "c"
        metadata.songName = "sn"
        metadata.trackNumber = 5
        metadata.discNumber = 6
        metadata.location = "l"
        metadata.latitude = 1.5
        metadata.longitude = -2.25
        metadata.width = 7
        metadata.height = 8
        metadata.creationDateTime = "cd"
        metadata.bookTitle = "bt"
        metadata.chapterNumber = 9
        metadata.chapterTitle = "ct"
        var clip = AdBreakClip(
            id: "c1", title: "t", contentId: "ci", contentUrl: "cu", contentType: "video/mp4", duration: 15,
            whenSkippable: 5, posterUrl: "p", clickThroughUrl: "ctu")
        clip.hlsSegmentFormat = "ts"
        clip.vastAdsRequest = AdsRequest(adTagUrl: "a", adsResponse: "r")
        clip.customData = custom
        var media = MediaInformation(
            contentId: "id", contentUrl: "url", streamType: .unknown("ODD"), contentType: "ct", metadata: metadata, duration: 1e21,
            tracks: [
                MediaTrack(
                    trackId: 1, type: .text, subtype: .subtitles, trackContentId: "tc", trackContentType: "text/vtt",
                    name: "n", language: "en", roles: ["main", "x"], customData: custom)
            ],
            textTrackStyle: TextTrackStyle(
                foregroundColor: "#FFFFFFFF", backgroundColor: "#000000FF", edgeType: .outline, edgeColor: "#1", fontScale: 1.25,
                fontFamily: "Cantarell", fontGenericFamily: .sansSerif, fontStyle: .boldItalic, windowType: .roundedCorners,
                windowColor: "#2", windowRoundedCornerRadius: 12, customData: custom),
            breaks: [AdBreak(id: "b", position: -1, breakClipIds: ["c1"], duration: 30, isWatched: true, isEmbedded: false)],
            breakClips: [clip], customData: custom)
        media.vmapAdsRequest = AdsRequest(adTagUrl: "v", adsResponse: "w")
        media.hlsSegmentFormat = "aac"
        media.entity = "e"
        media.userActionStates = [UserActionState(userAction: .unknown("CHEER"), customData: custom)]
        return media
    }

    static var fullStatus: MediaStatus {
        var status = MediaStatus(mediaSessionId: 7, playerState: .unknown("WEIRD"))
        status.idleReason = .finished
        status.currentTime = 0.1
        status.playbackRate = 1.5
        status.supportedMediaCommands = .allBasicMedia
        status.volume = Volume(level: 0.5, muted: false, controlType: "attenuation", stepInterval: 0.05)
        status.activeTrackIds = [1, 2]
        status.media = fullMedia
        status.breakStatus = BreakStatus(breakId: "b", breakClipId: "c", currentBreakTime: 1, currentBreakClipTime: 2, whenSkippable: 3)
        status.currentItemId = 1
        status.loadingItemId = 2
        status.preloadedItemId = 3
        let item = QueueItem(
            itemId: 1, media: fullMedia, autoplay: true, startTime: 4, playbackDuration: 5, preloadTime: 6,
            activeTrackIds: [3], customData: custom)
        status.items = [item]
        status.repeatMode = .allAndShuffle
        var queue = QueueData(id: "q", name: "n", repeatMode: .off, items: [item], startIndex: 0, startTime: 1)
        queue.description = "d"
        queue.entity = "e"
        queue.queueType = "PLAYLIST"
        queue.shuffle = true
        status.queueData = queue
        status.liveSeekableRange = LiveSeekableRange(start: 0, end: 60, isMovingWindow: true, isLiveDone: false)
        status.videoInfo = VideoInfo(width: 1920, height: 1080, hdrType: "sdr")
        status.extendedStatus = ExtendedMediaStatus(playerState: .loading, media: fullMedia, mediaSessionId: 8)
        status.customData = custom
        return status
    }

    @Test func everyFieldSet() {
        let statusMessage = MediaStatusMessage(
            requestId: 3, status: [Self.fullStatus, MediaStatus(mediaSessionId: 1, playerState: .idle)],
            customData: Self.custom)
        #expect(unset(MediaStatusMessage(requestId: 3, status: [Self.fullStatus], customData: Self.custom)) == [])
        same(.mediaStatus(statusMessage), "status")

        var load = LoadRequest(
            requestId: 4, media: Self.fullMedia, autoplay: false, currentTime: 2, activeTrackIds: [1],
            playbackRate: 0.5, customData: Self.custom)
        load.sessionId = "s"
        load.mediaSessionId = 1
        load.queueData = Self.fullStatus.queueData
        load.credentials = "c"
        load.credentialsType = "ct"
        #expect(unset(load) == [])
        same(.load(load), "load")

        var session = MediaSessionRequest(requestId: 5, mediaSessionId: 1, customData: Self.custom, options: 2)
        session.sessionId = "s"
        #expect(unset(session) == [])
        for m in [MediaMessage.play(session), .pause(session), .stop(session), .skipAd(session), .getStatus(session), .queueNext(session), .queuePrev(session)]
        {
            same(m, m.type)
        }
        let seek = SeekRequest(requestId: 6, mediaSessionId: 1, currentTime: 10, relativeTime: -5, resumeState: .playbackPause, customData: Self.custom)
        #expect(unset(seek) == [])
        same(.seek(seek), "seek")
        let rate = SetPlaybackRateRequest(requestId: 7, mediaSessionId: 1, playbackRate: 2, relativePlaybackRate: 0.25, customData: Self.custom)
        #expect(unset(rate) == [])
        same(.setPlaybackRate(rate), "rate")
    }

    @Test func fewestFields() {
        same(.mediaStatus(MediaStatusMessage(requestId: nil, status: [])), "empty status")
        same(.getStatus(MediaSessionRequest(requestId: 1, mediaSessionId: nil)), "get status")
        same(.setPlaybackRate(SetPlaybackRateRequest(requestId: 1, mediaSessionId: nil)), "rate")
        same(.seek(SeekRequest(requestId: 1, mediaSessionId: nil)), "seek")
        same(.load(LoadRequest(requestId: 1, media: MediaInformation(contentId: "", streamType: nil))), "load")
    }

    /// Every media fixture and its mutations that still decode.
    @Test func fixturesAndMutations() throws {
        var compared = 0
        let originals = try Fixtures.all().map { ($0, try Fixtures.message($0)) }
        for (name, message) in try originals + mutatedFixtures(seed: 29, each: 100) {
            guard case .media(let m)? = try? message.decoded(), (try? CastJSONWriter.encodeDirectly(m)) != nil else { continue }
            same(m, name)
            compared += 1
        }
        #expect(compared > 500)
    }
}

/// Every text fixture, each mutated `each` times (up to two edits with JSON's punctuation,
/// odd bytes and escapes), with the fixture's name.
func mutatedFixtures(seed: UInt64, each: Int) throws -> [(String, CastMessage)] {
    var rng = SplitMix64(state: seed)
    let alphabet = Array(#"{}[],:"\ -.0123456789eEtrufalsn/u00Aé"#.utf8) + [0x01, 0x1F, 0x7F]
    var out: [(String, CastMessage)] = []
    for name in Fixtures.all() {
        let message = try Fixtures.message(name)
        guard let text = message.utf8 else { continue }
        let original = Array(text.utf8)
        for _ in 0..<each {
            let bytes = rng.mutate(original, maxEdits: 2, alphabet: alphabet)
            out.append(
                (
                    name,
                    CastMessage(
                        sourceID: message.sourceID, destinationID: message.destinationID,
                        namespace: message.namespace, payload: .string(String(decoding: bytes, as: UTF8.self)))
                ))
        }
    }
    return out
}
