// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

// Mirroring: one way for every front end (castctl mirror, the window) to mirror the screen or
// the desktop's sound to a device over Cast Streaming (issue 33, docs/mirroring.md). It joins
// CastClient's session (the mirroring app, its webrtc channel, the link) to CastStreaming's
// `MirrorSession` (OFFER/ANSWER, RTP) and ScreenCapture's encoders, and says how it ended in
// one sentence.
//
//   MirrorRequest       what is mirrored (`MirrorMedia`: picture, picture and sound, sound
//                       alone), at which quality and delay, the sound from which source, with
//                       which codec (`CodecChoice`: auto, VP8 or H.264; the encoder is probed)
//   MirrorEnding        stopped by the user, or failed with a sentence
//   ScreenMirror.run    launches the app, streams until cancelled or something ends it,
//                       then stops the app it started

import CastClient
import CastStreaming
import ScreenCapture

/// What to mirror, and how.
public struct MirrorRequest: Sendable, Equatable {
    public var media: MirrorMedia
    public var quality: MirrorQuality
    /// The receiver's playout delay (Chrome's default is 400 ms).
    public var targetDelayMs: Int
    /// The PulseAudio source the sound is taken from (default: the monitor of the default output).
    public var soundSource: String
    /// The video codec; `auto` is H.264, on a hardware encoder when one works.
    public var codec: CodecChoice

    public init(
        media: MirrorMedia, quality: MirrorQuality = .balanced, targetDelayMs: Int = 400, soundSource: String = EncoderArguments.defaultSoundDevice,
        codec: CodecChoice = .auto
    ) {
        self.media = media
        self.quality = quality
        self.targetDelayMs = targetDelayMs
        self.soundSource = soundSource
        self.codec = codec
    }
}

/// How mirroring ended.
public enum MirrorEnding: Sendable, Equatable {
    /// The caller stopped it (the task was cancelled); the app was stopped on the device.
    /// `resent`: packets the receiver asked for again.
    case stopped(resent: Int)
    /// It could not start or could not go on: one sentence a person can act on.
    case failed(String)
}
