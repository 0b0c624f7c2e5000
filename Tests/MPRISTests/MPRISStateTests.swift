// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk
import CastClient
import CastProtocol
import GLibInterop
import MPRIS
import XCTest

/// The rules MPRIS publishes by, from receiver statuses: metadata, track ids, Seeked.
final class MPRISStateTests: XCTestCase {
    func status(
        _ state: PlayerState, at time: Double, rate: Double = 1, item: Int? = nil,
        content: String = "http://example.com/a.mp4", duration: Double? = 600
    ) -> MediaStatus {
        var s = MediaStatus(mediaSessionId: 1, playerState: state)
        s.currentTime = time
        s.playbackRate = rate
        s.currentItemId = item
        s.media = MediaInformation(
            contentId: content, metadata: MediaMetadata(title: "Film", subtitle: "Studio"),
            duration: duration)
        return s
    }

    func testPlaybackStatusCountsBufferingAsPlayingAndIdleAsStopped() {
        XCTAssertEqual(MPRIS.playbackStatus(.buffering), "Playing")
        XCTAssertEqual(MPRIS.playbackStatus(.playing), "Playing")
        XCTAssertEqual(MPRIS.playbackStatus(.paused), "Paused")
        XCTAssertEqual(MPRIS.playbackStatus(.idle), "Stopped")
        XCTAssertEqual(MPRIS.playbackStatus(nil), "Stopped")
    }

    func testLoopStatusBothWays() {
        XCTAssertEqual(MPRIS.loopStatus(.off), "None")
        XCTAssertEqual(MPRIS.loopStatus(.single), "Track")
        XCTAssertEqual(MPRIS.loopStatus(.all), "Playlist")
        XCTAssertEqual(MPRIS.loopStatus(.allAndShuffle), "Playlist")
        XCTAssertEqual(MPRIS.loopStatus(.unknown("REPEAT_SOMETIMES")), "None")
        XCTAssertEqual(MPRIS.repeatMode(loopStatus: "Playlist", shuffled: true), .allAndShuffle, "shuffling stays on")
        XCTAssertEqual(MPRIS.repeatMode(loopStatus: "Playlist", shuffled: false), .all)
        XCTAssertEqual(MPRIS.repeatMode(loopStatus: "Track", shuffled: true), .single)
        XCTAssertNil(MPRIS.repeatMode(loopStatus: "Forever", shuffled: false))
    }

    func testMetadataHasLengthInMicrosecondsAndAFileArtURL() {
        let media = MediaInformation(
            contentId: "x", contentUrl: "http://h/x.mp4",
            metadata: MediaMetadata(title: "Big Buck Bunny", subtitle: "Blender"), duration: 596.5)
        let m = Dictionary(uniqueKeysWithValues: MPRIS.metadata(trackID: "/t/1", media: media, length: 596.5, artworkPath: "/tmp/a b/é.jpg"))
        XCTAssertEqual(m["mpris:trackid"], .objectPath("/t/1"))
        XCTAssertEqual(m["mpris:length"], .int64(596_500_000))
        XCTAssertEqual(m["xesam:title"], .string("Big Buck Bunny"))
        XCTAssertEqual(m["xesam:artist"], .strings(["Blender"]))
        XCTAssertEqual(m["xesam:url"], .string("http://h/x.mp4"))
        XCTAssertEqual(m["mpris:artUrl"], .string("file:///tmp/a%20b/%C3%A9.jpg"))
    }

    /// A file of this computer is named by its own file:// URL, not by the media server's
    /// address with its share token (issue 35).
    func testALocalFileIsItsFileURL() {
        let media = MediaInformation(contentId: "http://192.168.1.5:8010/Zm9vYmFy/film.mkv", contentUrl: "http://192.168.1.5:8010/Zm9vYmFy/film.mkv")
        let m = Dictionary(uniqueKeysWithValues: MPRIS.metadata(trackID: "/t/1", media: media, artworkPath: nil, localFile: "/home/me/Videos/a film.mkv"))
        XCTAssertEqual(m["xesam:url"], .string("file:///home/me/Videos/a%20film.mkv"))
    }

    func testLiveStreamsSayLiveAndHaveNoArtWithoutAFile() {
        let media = MediaInformation(contentId: "x", streamType: .live, duration: 100)
        let m = Dictionary(uniqueKeysWithValues: MPRIS.metadata(trackID: "/t/1", media: media, isLive: true, artworkPath: nil))
        XCTAssertNil(m["mpris:length"])
        XCTAssertEqual(m["xesam:comment"], .strings(["Live"]))
        XCTAssertNil(m["mpris:artUrl"])
    }

    func testTrackIDChangesWithTheMediaAndTheQueueItemOnly() {
        var n = TrackNumbering()
        let a = n.trackID(for: MPRIS.trackKey(status(.playing, at: 1, item: 1)))
        XCTAssertEqual(n.trackID(for: MPRIS.trackKey(status(.paused, at: 9, item: 1))), a)
        let b = n.trackID(for: MPRIS.trackKey(status(.playing, at: 0, item: 2)))
        XCTAssertNotEqual(a, b)
        XCTAssertTrue(b.hasPrefix(MPRIS.trackPrefix))
        XCTAssertEqual(n.trackID(for: nil), MPRIS.noTrack)
    }

    func testSeekedForJumpsNotForStatusesOnTheLine() {
        var d = SeekDetector()
        let t0 = ContinuousClock.now
        XCTAssertNil(d.update(MediaStatusSnapshot(status: status(.playing, at: 10), receivedAt: t0), at: t0))
        // Five seconds later the receiver says 15: playing on, no jump.
        let t1 = t0 + .seconds(5)
        XCTAssertNil(d.update(MediaStatusSnapshot(status: status(.playing, at: 15), receivedAt: t1), at: t1))
        // Paused where it was: no jump.
        XCTAssertNil(d.update(MediaStatusSnapshot(status: status(.paused, at: 15.2), receivedAt: t1), at: t1))
        // Another sender seeks to 120.
        let t2 = t1 + .seconds(1)
        XCTAssertEqual(d.update(MediaStatusSnapshot(status: status(.paused, at: 120), receivedAt: t2), at: t2), 120)
        // A rate change is a jump of the timeline's slope.
        XCTAssertEqual(d.update(MediaStatusSnapshot(status: status(.paused, at: 120, rate: 2), receivedAt: t2), at: t2), 120)
        // A new item.
        XCTAssertEqual(d.update(MediaStatusSnapshot(status: status(.playing, at: 120, rate: 2, item: 7), receivedAt: t2), at: t2), 120)
    }

    func testDBusValuesRoundTripThroughGVariant() {
        let v = DBusValue.tuple([
            .string("org.mpris.MediaPlayer2.Player"),
            .dictionary([
                ("Rate", .double(2)),
                (
                    "Metadata",
                    .dictionary([
                        ("mpris:trackid", .objectPath("/a/1")),
                        ("xesam:artist", .strings(["A", "B"])),
                    ])
                ),
            ]),
            .strings([]), .int64(-5), .bool(true),
        ])
        let g = v.gvariant()
        g_variant_ref_sink(g)
        defer { g_variant_unref(g) }
        // Dictionary values come back boxed in variants, as on the bus.
        let back = DBusValue(g)
        guard case .tuple(let items)? = back, items.count == 5 else { return XCTFail("\(String(describing: back))") }
        XCTAssertEqual(items[0], .string("org.mpris.MediaPlayer2.Player"))
        guard case .dictionary(let d) = items[1] else { return XCTFail() }
        XCTAssertEqual(d.first?.1, .variant(.double(2)))
        XCTAssertEqual(items[3], .int64(-5))
        XCTAssertEqual(items[4], .bool(true))
    }
}
