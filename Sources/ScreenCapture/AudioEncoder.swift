// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation

/// What the sound encoder hands out.
public enum AudioEncoderEvent: Sendable, Equatable {
    case packet(EncodedAudioPacket)
    /// ffmpeg ended on its own (not by `restart` or `stop`): what it said, or its exit status.
    case ended(String)
}

/// Runs ffmpeg with `EncoderArguments.audio` (a PulseAudio source → Opus in Ogg) and reads its
/// output on a thread of its own (`OggOpusReader`); `restart` starts it again after it ended.
/// The packets of every process come out of the one `events` stream, in order.
public final class AudioEncoder: Sendable {
    public let events: AsyncStream<AudioEncoderEvent>
    private let continuation: AsyncStream<AudioEncoderEvent>.Continuation
    private let arguments: [String]
    private let child: EncoderChild

    /// `device`: the PulseAudio source (default: the monitor of the default output).
    public init(device: String = EncoderArguments.defaultSoundDevice, bitRate: Int = EncoderArguments.soundBitRate, ffmpeg: String = "ffmpeg") {
        (events, continuation) = AsyncStream.makeStream(of: AudioEncoderEvent.self, bufferingPolicy: .bufferingNewest(500))
        arguments = EncoderArguments.audio(device: device, bitRate: bitRate)
        child = EncoderChild(ffmpeg: ffmpeg, purpose: "to send the desktop's sound", threadName: "castdeck.sound")
    }

    public func start() throws(ScreenCaptureError) { try restart() }

    /// Ends the running ffmpeg (if any) and starts a new one.
    public func restart() throws(ScreenCaptureError) {
        try child.replace(arguments: arguments, ended: { [continuation] in continuation.yield(.ended($0)) }) { [continuation] isCurrent in
            var reader = OggOpusReader()
            return { chunk in
                for packet in try reader.append(chunk) where isCurrent() { continuation.yield(.packet(packet)) }
            }
        }
    }

    /// Ends capturing for good; `events` finishes.
    public func stop() {
        child.stop()
        continuation.finish()
    }
}
