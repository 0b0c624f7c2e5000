// MediaInformation keeps its members behind one shared reference (copy on write): it must
// still behave exactly as a value.
import Foundation
import Testing

@testable import CastProtocol

@Suite struct MediaInformationStorageTests {
    static func sample() -> MediaInformation {
        MediaInformation(contentId: "https://example.com/a.mp4", contentType: "video/mp4",
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
