// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastCore
import CastProtocol
import LocalMedia

/// The media `castdeck --demo` offers: metadata with images, two subtitle tracks, English
/// captions, two audio tracks, chapters, a METADATA track (never offered), a pre-roll (the
/// first clip with a poster and a Learn More link) and a mid-roll ad break. The simulator does
/// not fetch media, so the URLs only have to be well-formed; the chapter track is a `data:`
/// URL the window reads without a server.
public enum SampleMedia {
    public static func bigBuckBunny(artworkPath: String?, adPosterPath: String? = nil) -> MediaInformation {
        var images: [CastImage] = []
        if let artworkPath { images.append(CastImage(url: "file://" + artworkPath, width: 480, height: 270)) }
        images.append(
            CastImage(
                url: "https://storage.googleapis.com/gtv-videos-bucket/sample/images/BigBuckBunny.jpg",
                width: 780, height: 1200))
        var metadata = MediaMetadata(
            metadataType: .movie, title: "Big Buck Bunny",
            subtitle: "Blender Foundation", images: images)
        metadata.studio = "Blender Foundation"
        metadata.releaseDate = "2008-05-20"
        let tracks = [
            MediaTrack(
                trackId: 1, type: .text, subtype: .subtitles,
                trackContentId: "https://example.invalid/bbb/subs-en.vtt", trackContentType: "text/vtt",
                name: "English", language: "en"),
            MediaTrack(
                trackId: 2, type: .text, subtype: .subtitles,
                trackContentId: "https://example.invalid/bbb/subs-fa.vtt", trackContentType: "text/vtt",
                name: "فارسی", language: "fa"),
            MediaTrack(trackId: 3, type: .audio, name: "English (stereo)", language: "en"),
            MediaTrack(trackId: 4, type: .audio, name: "Commentary", language: "en"),
            MediaTrack(
                trackId: 5, type: .text, subtype: .captions,
                trackContentId: "https://example.invalid/bbb/captions-en.vtt", trackContentType: "text/vtt", language: "en"),
            MediaTrack(
                trackId: 6, type: .text, subtype: .chapters, trackContentId: WebVTTChapters.dataURL(bigBuckBunnyChapters),
                trackContentType: "text/vtt", name: "Chapters", language: "en"),
            MediaTrack(
                trackId: 7, type: .text, subtype: .metadata,
                trackContentId: "https://example.invalid/bbb/cues.vtt", trackContentType: "text/vtt", language: "en"),
        ]
        let clips = [
            AdBreakClip(
                id: "pre-1", title: "Pre-roll ad 1", duration: 15, whenSkippable: 5, posterUrl: adPosterPath.map { "file://" + $0 },
                clickThroughUrl: "https://peach.blender.org/"),
            AdBreakClip(id: "pre-2", title: "Pre-roll ad 2", duration: 10, whenSkippable: 5),
            AdBreakClip(id: "pre-3", title: "Pre-roll ad 3", duration: 30, whenSkippable: 5),
            AdBreakClip(id: "mid-1", title: "Mid-roll ad", duration: 20, whenSkippable: 5),
        ]
        let breaks = [
            AdBreak(id: "pre-roll", position: 0, breakClipIds: ["pre-1", "pre-2", "pre-3"], duration: 55),
            AdBreak(id: "mid-roll", position: 300, breakClipIds: ["mid-1"], duration: 20),
        ]
        return MediaInformation(
            contentId: "https://storage.googleapis.com/gtv-videos-bucket/sample/BigBuckBunny.mp4",
            streamType: .buffered, contentType: "video/mp4", metadata: metadata, duration: 596.5,
            tracks: tracks, breaks: breaks, breakClips: clips)
    }

    /// The sample's chapters (its chapter track, issue 31).
    public static let bigBuckBunnyChapters = [
        MediaChapter(start: 0, end: 75, title: "The Meadow"),
        MediaChapter(start: 75, end: 150, title: "Big Buck Bunny Wakes Up"),
        MediaChapter(start: 150, end: 255, title: "Three Bullies"),
        MediaChapter(start: 255, end: 330, title: "The Butterfly"),
        MediaChapter(start: 330, end: 450, title: "A Plan"),
        MediaChapter(start: 450, end: 540, title: "Traps"),
        MediaChapter(start: 540, end: 596.5, title: "Credits"),
    ]
}
