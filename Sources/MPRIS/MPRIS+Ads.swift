// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastClient
import CastProtocol
import GLibInterop

// During an ad break a media card shows the ad, as the window does: the title "Ad 1 of 3",
// the clip's title as the artist line, its poster as the artwork, and the clip's own length
// and position; the content comes back with the break's end (a new track id both ways).
extension MPRIS {
    /// xesam/mpris metadata of the playing ad clip. `artworkPath`: the local file of the
    /// clip's poster (else the content's artwork), as for any track.
    public static func adMetadata(trackID: String, ad: AdPlayback, artworkPath: String?) -> [(String, DBusValue)] {
        var out: [(String, DBusValue)] = [("mpris:trackid", .objectPath(trackID))]
        if let d = ad.clipDuration, d > 0 { out.append(("mpris:length", .int64(microseconds(d)))) }
        out.append(("xesam:title", .string(ad.heading)))
        if let title = ad.shownTitle { out.append(("xesam:artist", .strings([title]))) }
        if let path = artworkPath, !path.isEmpty { out.append(("mpris:artUrl", .string(fileURI(path)))) }
        return out
    }

    /// The track key during a break: the content's, and the clip playing.
    static func adTrackKey(_ status: MediaStatus?) -> String? {
        guard let key = trackKey(status), let b = status?.breakStatus else { return trackKey(status) }
        return key + "/ad/" + (b.breakId ?? "") + "/" + (b.breakClipId ?? "")
    }
}

extension MPRISService {
    /// Metadata for the player: the ad while one plays, else the media.
    func currentMetadata(hasMedia: Bool) -> [(String, DBusValue)] {
        if hasMedia, let ad = model.adState {
            return MPRIS.adMetadata(trackID: trackID, ad: ad, artworkPath: model.shownArtworkPath(for: .mediaSession))
        }
        return MPRIS.metadata(
            trackID: trackID, media: hasMedia ? model.media : nil, length: model.duration, isLive: model.isLive,
            artworkPath: model.artworkPath(for: .mediaSession), localFile: model.localFilePath)
    }

    /// Position: the ad clip's during a break (its length is the track's), else the content's.
    var currentPosition: Double {
        guard model.hasMedia else { return 0 }
        return model.adState?.clipTime ?? model.position
    }
}
