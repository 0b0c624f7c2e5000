// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastClient
import CastProtocol
import GLibInterop

// What MPRIS says about the player, computed from AppModel (the receiver's status) alone:
// the property values, the track id, and when the position jumped. No D-Bus here, so the
// rules are tested without a bus.

/// MPRIS names and constants.
public enum MPRIS {
    public static let busName = "org.mpris.MediaPlayer2.CastDeck"
    public static let objectPath = "/org/mpris/MediaPlayer2"
    public static let rootInterface = "org.mpris.MediaPlayer2"
    public static let playerInterface = "org.mpris.MediaPlayer2.Player"
    /// The track id when nothing plays (the specification's reserved path).
    public static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"
    /// Track ids: this prefix and a number that grows whenever the media (or queue item) changes.
    public static let trackPrefix = "/io/github/castdeck/CastDeck/track/"
    public static let minimumRate = 0.5
    public static let maximumRate = 2.0
    public static let uriSchemes = ["http", "https", "file"]
    public static let mimeTypes = [
        "video/mp4", "video/webm", "video/quicktime", "video/x-m4v", "application/x-mpegURL",
        "application/vnd.apple.mpegurl", "application/dash+xml", "audio/mpeg", "audio/mp4", "audio/aac",
        "audio/flac", "audio/ogg", "audio/opus", "audio/wav", "audio/webm", "image/jpeg", "image/png",
        "image/gif", "image/webp",
    ]

    /// PlaybackStatus for a receiver state: BUFFERING counts as playing, IDLE (or no media) as stopped.
    public static func playbackStatus(_ state: PlayerState?) -> String {
        switch state {
        case .playing?, .buffering?: "Playing"
        case .paused?: "Paused"
        default: "Stopped"
        }
    }

    /// LoopStatus for a queue's repeat mode: one item again and again is "Track", the whole
    /// queue (shuffled or not) "Playlist".
    public static func loopStatus(_ mode: RepeatMode) -> String {
        switch mode {
        case .single: "Track"
        case .all, .allAndShuffle: "Playlist"
        default: "None"
        }
    }

    /// The repeat mode a LoopStatus asks for; `shuffled` keeps shuffling on for "Playlist".
    /// nil for a value the specification does not define.
    public static func repeatMode(loopStatus: String, shuffled: Bool) -> RepeatMode? {
        switch loopStatus {
        case "None": .off
        case "Track": .single
        case "Playlist": shuffled ? .allAndShuffle : .all
        default: nil
        }
    }

    /// Seconds to MPRIS microseconds.
    public static func microseconds(_ seconds: Double) -> Int64 {
        guard seconds.isFinite else { return 0 }
        // A device's time is not trusted to fit: 9e12 s is about the largest Int64 microseconds hold.
        return Int64((min(max(0, seconds), 9e12) * 1_000_000).rounded())
    }

    /// A file:// URI of a local path (RFC 3986: everything but unreserved characters and '/'
    /// percent-encoded).
    public static func fileURI(_ path: String) -> String {
        var out = "file://"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(Character(Unicode.Scalar(byte)))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }

    /// xesam/mpris metadata of a media item. `length` is the media's (AppModel's `duration`),
    /// left out for live streams and unknown durations; a live stream says "Live" in
    /// `xesam:comment`; `artUrl` is left out without a local artwork file. `localFile` is the
    /// file of this computer the item is (a cast file): `url` is its `file://` URL, not the
    /// address with a share token the device fetches it from.
    public static func metadata(
        trackID: String, media: MediaInformation?, length: Double? = nil, isLive: Bool = false, artworkPath: String?, localFile: String? = nil
    ) -> [(String, DBusValue)] {
        var out: [(String, DBusValue)] = [("mpris:trackid", .objectPath(trackID))]
        guard let media else { return out }
        if let d = length, d > 0, d.isFinite {
            out.append(("mpris:length", .int64(microseconds(d))))
        }
        if isLive { out.append(("xesam:comment", .strings([tr("Live")]))) }
        let m = media.metadata
        if let title = m?.displayTitle, !title.isEmpty { out.append(("xesam:title", .string(title))) }
        if let artist = m.flatMap(artist), !artist.isEmpty { out.append(("xesam:artist", .strings([artist]))) }
        if let album = m.flatMap(album), !album.isEmpty { out.append(("xesam:album", .string(album))) }
        out.append(("xesam:url", .string(localFile.map(fileURI) ?? media.contentUrl ?? media.contentId)))
        if let path = artworkPath, !path.isEmpty { out.append(("mpris:artUrl", .string(fileURI(path)))) }
        return out
    }

    /// Who made it: the music artist, a photo's artist, else the display subtitle (a TV series,
    /// a film's studio), which is what a media card shows under the title.
    static func artist(_ m: MediaMetadata) -> String? {
        m.artist ?? m.artistName ?? m.albumArtist ?? m.displaySubtitle
    }

    static func album(_ m: MediaMetadata) -> String? {
        m.albumName ?? m.bookTitle ?? (m.metadataType == .tvShow ? m.seriesTitle : nil)
    }

    /// What identifies "the same track": the media session, the queue item, the content.
    public static func trackKey(_ status: MediaStatus?) -> String? {
        guard let status, let media = status.effectiveMedia else { return nil }
        return "\(status.mediaSessionId)/\(status.currentItemId ?? -1)/\(media.contentId)"
    }
}

/// Numbers track ids: a new object path each time the track key changes.
public struct TrackNumbering: Sendable {
    private var key: String?
    private var number = 0
    public init() {}

    /// The track id for `key` (nil: no track).
    public mutating func trackID(for key: String?) -> String {
        guard let key else {
            self.key = nil
            return MPRIS.noTrack
        }
        if key != self.key {
            self.key = key
            number += 1
        }
        return MPRIS.trackPrefix + String(number)
    }
}

/// Decides when the position jumped, for the Seeked signal: each new status is compared with
/// where the previous one said playback would be by now. A seek (ours or another sender's), a
/// new item, a rate change or the end of a break all move the position off that line.
public struct SeekDetector: Sendable {
    /// Differences below this (seconds) are the receiver's clock and network delay, not a seek.
    public static let tolerance = 1.0
    private var previous: MediaStatusSnapshot?
    private var previousKey: String?
    public init() {}

    /// Feeds the latest snapshot; returns the new position (seconds) when it jumped.
    public mutating func update(_ snapshot: MediaStatusSnapshot?, at now: ContinuousClock.Instant) -> Double? {
        defer {
            previous = snapshot
            previousKey = MPRIS.trackKey(snapshot?.status)
        }
        guard let snapshot, snapshot != previous, let position = snapshot.streamPosition(at: now) else { return nil }
        guard let previous, let old = previous.status else { return nil }
        let key = MPRIS.trackKey(snapshot.status)
        if key != previousKey { return key == nil ? nil : position }
        if (old.playbackRate ?? 1) != (snapshot.status?.playbackRate ?? 1) { return position }
        if (old.breakStatus != nil) != (snapshot.status?.breakStatus != nil) { return position }
        guard let expected = previous.streamPosition(at: now) else { return position }
        return abs(expected - position) > Self.tolerance ? position : nil
    }
}

extension String {
    func leftPadded(_ n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
