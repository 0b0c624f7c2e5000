// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastProtocol

/// The ad playing now, derived once from a status: `breakStatus` says which break and clip
/// and how far into it, the media's `breaks` and `breakClips` say the rest. The window's
/// surfaces (expanded controller, mini controller, mini player, MPRIS) and `castctl status`
/// all read this one value (`MediaStatusSnapshot.ad(at:)`).
public struct AdPlayback: Equatable, Sendable, Encodable {
    public var breakID: String?
    public var clipID: String?
    /// 1-based index of the playing clip in its break, and the break's clip count.
    public var clipIndex: Int
    public var clipCount: Int
    /// The clip's title as the sender gave it (nil: none).
    public var clipTitle: String?
    /// Seconds into the clip at the moment asked for, and the clip's length when known.
    public var clipTime: Double
    public var clipDuration: Double?
    /// Seconds left in the clip.
    public var remaining: Double
    /// Seconds until the clip can be skipped; 0 when it can be skipped now, nil when never.
    public var skippableIn: Double?
    /// The clip's poster image (shown as the artwork while it plays).
    public var posterURL: String?
    /// The clip's click-through link, only when it is an http or https address (`webLink`):
    /// whatever else a sender wrote there is never handed to the desktop to open.
    public var learnMoreURL: String?
    /// The break is part of the content's own stream (`isEmbedded`): the content position
    /// moves through it.
    public var isEmbedded: Bool
    /// A VAST request attached to the clip: the receiver fetches the ad; a sender can only say
    /// that there is one (Cast carries no companion ads other than inside VAST or customData).
    public var vastAdsRequest: AdsRequest?

    public var isSkippable: Bool { skippableIn == 0 }

    /// `text` when it is an absolute http(s) address with a host and nothing that is not
    /// printable ASCII (no spaces, controls or bidirectional marks that disguise it); else nil.
    public static func webLink(_ text: String?) -> String? {
        guard let text, text.utf8.count <= 2048 else { return nil }
        guard text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else { return nil }
        let lower = text.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") {
            rest = text.dropFirst(8)
        } else if lower.hasPrefix("http://") {
            rest = text.dropFirst(7)
        } else {
            return nil
        }
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        // "user@host" forms are refused: they make one address look like another.
        guard !host.isEmpty, !host.contains("@"), host.first != ":" else { return nil }
        return text
    }
}

extension MediaStatusSnapshot {
    /// The break being played, when the status says one plays and the media lists it.
    private var playingBreak: AdBreak? {
        guard let b = status?.breakStatus else { return nil }
        return status?.effectiveMedia?.breaks?.first { $0.id == b.breakId }
    }

    /// True while an embedded break plays (`isEmbedded`): the ad is part of the content's
    /// stream, so the content position moves through it at the playback rate.
    public var isInEmbeddedBreak: Bool { playingBreak?.isEmbedded == true }

    /// The ad playing at `now`; nil outside a break.
    public func ad(at now: ContinuousClock.Instant) -> AdPlayback? {
        guard let b = status?.breakStatus, let clipTime = breakClipTime(at: now) else { return nil }
        let media = status?.effectiveMedia
        let brk = playingBreak
        let clipIDs = brk?.breakClipIds ?? []
        let clip = media?.breakClips?.first { $0.id == b.breakClipId }
        let index = (clipIDs.firstIndex { $0 == b.breakClipId } ?? 0) + 1
        let duration = clip?.duration.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        let skipAt = b.whenSkippable ?? clip?.whenSkippable
        // Numbers from the device: a non-finite or absurd wait is not shown as a count.
        let skippableIn = skipAt.map { max(0, ($0 - clipTime).rounded(.up)) }.map { $0.isFinite ? min($0, 1e9) : 0 }
        return AdPlayback(
            breakID: b.breakId, clipID: b.breakClipId, clipIndex: index, clipCount: max(clipIDs.count, 1),
            clipTitle: clip?.title.flatMap { $0.isEmpty ? nil : $0 }, clipTime: clipTime, clipDuration: duration,
            remaining: max(0, (duration ?? 0) - clipTime), skippableIn: skippableIn,
            posterURL: clip?.posterUrl.flatMap { $0.isEmpty ? nil : $0 }, learnMoreURL: AdPlayback.webLink(clip?.clickThroughUrl),
            isEmbedded: brk?.isEmbedded == true, vastAdsRequest: clip?.vastAdsRequest)
    }
}
