// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastProtocol

/// The kinds a media's tracks are shown in, the one rule the window's tracks popover and
/// `castctl tracks` share (issue 31). A text track's subtype decides: subtitles (also a text
/// track of no or an unknown subtype, as receivers treat it), captions (marked CC),
/// descriptions (text describing the picture, for a screen reader), chapters (the media's
/// chapter list: not something to turn on) and metadata (for the app on the device, never
/// offered to a person). Tracks of a type CastDeck does not know are `other`.
public enum TrackGroup: String, CaseIterable, Sendable {
    case subtitles, captions, descriptions, audio, video, chapters, metadata
    /// A track of a type this library does not know.
    case other

    public init(_ track: MediaTrack) {
        switch track.type {
        case .audio: self = .audio
        case .video: self = .video
        case .unknown: self = .other
        case .text:
            switch track.subtype {
            case .captions?: self = .captions
            case .descriptions?: self = .descriptions
            case .chapters?: self = .chapters
            case .metadata?: self = .metadata
            case .subtitles?, .unknown?, nil: self = .subtitles
            }
        }
    }

    /// Text tracks a person turns on and off (one at a time): subtitles, captions, descriptions.
    public var isTextChoice: Bool { self == .subtitles || self == .captions || self == .descriptions }
}

extension MediaTrack {
    public var group: TrackGroup { TrackGroup(self) }
    /// A text track offered among the subtitles (not chapters, not metadata).
    public var isOffered: Bool { group.isTextChoice }
}
