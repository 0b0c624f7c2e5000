// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// MediaInformation keeps its members behind one shared reference (copy on write): it must
// still behave exactly as a value.
import Foundation
import Testing

@_spi(Reference) @testable import CastProtocol

@Suite struct MediaInformationStorageTests {
    static func sample() -> MediaInformation {
        MediaInformation(
            contentId: "https://example.com/a.mp4", contentType: "video/mp4",
            metadata: MediaMetadata(metadataType: .movie, title: "A"), duration: 60,
            tracks: [MediaTrack(trackId: 1, type: .text, language: "en")])
    }

    @Test func aChangedCopyLeavesTheOriginalAlone() {
        let original = Self.sample()
        var copy = original
        copy.contentId = "https://example.com/b.mp4"
        copy.metadata?.title = "B"
        copy.tracks?.append(MediaTrack(trackId: 2, type: .audio))
        copy.duration = nil
        #expect(original.contentId == "https://example.com/a.mp4")
        #expect(original.metadata?.title == "A")
        #expect(original.tracks?.count == 1)
        #expect(original.duration == 60)
        #expect(copy.metadata?.title == "B" && copy.tracks?.count == 2 && copy.duration == nil)
        #expect(copy != original)
    }

    @Test func equalMembersAreEqualAndHashAlike() {
        let a = Self.sample(), b = Self.sample()  // separate storage
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
        var c = b
        c.entity = "x"
        #expect(c != a)
        c.entity = nil
        #expect(c == a)
    }

    @Test func copiesInsideStatusesAndQueuesStayIndependent() {
        var status = MediaStatus(mediaSessionId: 1, playerState: .playing)
        status.media = Self.sample()
        status.items = [QueueItem(media: Self.sample())]
        var later = status
        later.media?.metadata?.title = "Changed"
        later.items?[0].media?.contentId = "other"
        #expect(status.media?.metadata?.title == "A")
        #expect(status.items?[0].media?.contentId == "https://example.com/a.mp4")
        #expect(later.media?.metadata?.title == "Changed" && later.items?[0].media?.contentId == "other")
    }

    @Test func codableFormIsTheMembers() throws {
        let media = Self.sample()
        let data = try JSONEncoder().encode(media)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["contentId", "contentType", "metadata", "duration", "tracks", "streamType"])
        #expect(try JSONDecoder().decode(MediaInformation.self, from: data) == media)
        // Our own writer gives the same members as Foundation.
        #expect(try JSONSerialization.jsonObject(with: Data(CastJSON.encode(media).utf8)) as? NSDictionary == object as NSDictionary)
    }

    @Test func reflectionShowsTheMembers() {
        let labels = Mirror(reflecting: Self.sample()).children.compactMap(\.label)
        #expect(labels.contains("contentId") && labels.contains("metadata") && labels.contains("customData"))
    }
}

// MediaStatus keeps its members behind the same kind of shared reference.
@Suite struct MediaStatusStorageTests {
    static func sample() -> MediaStatus {
        var s = MediaStatus(mediaSessionId: 7, playerState: .playing)
        s.currentTime = 31.5
        s.playbackRate = 1
        s.volume = Volume(level: 0.5, muted: false)
        s.activeTrackIds = [1]
        s.media = MediaInformationStorageTests.sample()
        s.customData = ["k": "v"]
        return s
    }

    @Test func aChangedCopyLeavesTheOriginalAlone() {
        let original = Self.sample()
        var copy = original
        copy.playerState = .paused
        copy.currentTime = 40
        copy.volume?.level = 1
        copy.activeTrackIds?.append(2)
        copy.media?.metadata?.title = "B"
        copy.mediaSessionId += 1
        #expect(original.playerState == .playing && original.currentTime == 31.5 && original.volume?.level == 0.5)
        #expect(original.activeTrackIds == [1] && original.media?.metadata?.title == "A" && original.mediaSessionId == 7)
        #expect(copy.playerState == .paused && copy.currentTime == 40 && copy.volume?.level == 1 && copy.mediaSessionId == 8)
        #expect(copy != original)
        // Statuses in arrays and messages are values too.
        var message = MediaStatusMessage(requestId: 1, status: [original])
        let kept = message
        message.status[0].idleReason = .finished
        #expect(kept.status[0].idleReason == nil && message.status[0].idleReason == .finished)
    }

    @Test func equalMembersAreEqualAndHashAlike() {
        let a = Self.sample(), b = Self.sample()
        #expect(a == b && a.hashValue == b.hashValue && Set([a, b]).count == 1)
        var c = b
        c.currentTime = 1
        #expect(c != a)
        c.currentTime = 31.5
        #expect(c == a)
    }

    @Test func everyWayOfDecodingGivesTheSameStatus() throws {
        let status = Self.sample()
        let text = CastJSON.encode(MediaMessage.mediaStatus(MediaStatusMessage(requestId: 3, status: [status])))
        let onePass = try #require(CastJSON.readMediaStatus(Array(text.utf8)))
        let tree = try CastJSON.decodeThroughTree(MediaMessage.self, fromUTF8: Array(text.utf8), namespace: "media")
        let foundation = try JSONDecoder().decode(MediaMessage.self, from: Data(text.utf8))
        #expect(onePass == tree && tree == foundation)
        guard case .mediaStatus(let m) = onePass else {
            Issue.record("not a status")
            return
        }
        #expect(m.status == [status])
    }

    @Test func reflectionAndCodableShowTheMembers() throws {
        let labels = Mirror(reflecting: Self.sample()).children.compactMap(\.label)
        #expect(labels.contains("mediaSessionId") && labels.contains("playerState") && labels.contains("customData"))
        let data = try JSONEncoder().encode(Self.sample())
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["mediaSessionId", "playerState", "currentTime", "playbackRate", "volume", "activeTrackIds", "media", "customData"])
        #expect(try JSONDecoder().decode(MediaStatus.self, from: data) == Self.sample())
    }
}
