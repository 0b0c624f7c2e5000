// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastProtocol

/// What an item is, for the icon that stands for it where there is no artwork (the expanded
/// controller's placeholder, queue rows): one rule for every surface.
public enum MediaKind: Sendable, Equatable {
    case audio, video, image

    /// From the metadata type first (a music track is audio even when served as video/mp4),
    /// then from the content type; video when neither says.
    public init(_ media: MediaInformation?) {
        switch media?.metadata?.metadataType {
        case .musicTrack?, .audiobookChapter?: self = .audio
        case .photo?: self = .image
        case .movie?, .tvShow?: self = .video
        default:
            let type = media?.contentType?.lowercased() ?? ""
            self = type.hasPrefix("audio") ? .audio : type.hasPrefix("image") ? .image : .video
        }
    }

    /// The symbolic icon of the kind (Adwaita names).
    public var iconName: String {
        switch self {
        case .audio: "audio-x-generic-symbolic"
        case .video: "video-x-generic-symbolic"
        case .image: "image-x-generic-symbolic"
        }
    }
}
