// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastStreaming
import Foundation
import ScreenCapture

/// The sound of a mirroring session, for tests to read (`--mirror-output DIR`): the Opus
/// frames received are fed, as Ogg (`OggOpusWriter`), to ffmpeg, which decodes them to 48 kHz
/// stereo signed 16-bit PCM appended to `sN-audio.s16le`; each piece of PCM read back adds a
/// `"event": "sound"` line to `frames.jsonl` (session, samples decoded so far per channel, and
/// the time), which places the sound in time (the benchmark's delay). Frames the receiver gave
/// up are simply missing from the PCM.
final class MirrorSoundSink: @unchecked Sendable {
    private let directory: URL
    private let session: Int
    /// Where the lines go (the frame sink's `frames.jsonl`); set once, before the first frame.
    var log: @Sendable (String) -> Void = { _ in }
    private let queue = DispatchQueue(label: "castdeck.receiver.sound")
    private var decoder: Process?
    private var input: FileHandle?
    private var ogg = OggOpusWriter()
    private var started = false

    init(directory: URL, session: Int) {
        self.directory = directory
        self.session = session
    }

    private func write(_ line: String) { log(line) }

    func take(_ frame: ReceivedFrame) {
        queue.async { [self] in
            if !started {
                started = true
                startDecoder(channels: frame.stream.channels ?? 2)
            }
            guard let input else { return }
            // A packet ffmpeg would refuse (not Opus) stops nothing: it is logged and left out.
            guard let samples = EncodedAudioPacket.opusSamples(frame.data) else {
                write("{\"event\":\"error\",\"session\":\(session),\"message\":\"audio frame \(frame.frameID) is not an Opus packet\"}")
                return
            }
            try? input.write(contentsOf: Data(ogg.packet(frame.data, samples: samples)))
        }
    }

    /// Ends the decoder once it has decoded what it was given.
    func close(then done: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            try? input?.close()
            input = nil
            if let decoder { for _ in 0..<300 where decoder.isRunning { usleep(10_000) } }
            done()
        }
    }

    private func startDecoder(channels: Int) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [
            "ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error", "-probesize", "32", "-analyzeduration", "0", "-fflags", "nobuffer",
            "-f", "ogg", "-i", "pipe:0", "-f", "s16le", "-ac", "2", "-ar", "48000", "-flush_packets", "1", "pipe:1",
        ]
        let stdin = Pipe(), stdout = Pipe()
        p.standardInput = stdin
        p.standardOutput = stdout
        p.standardError = FileHandle.standardError
        do { try p.run() } catch {
            write("{\"event\":\"error\",\"session\":\(session),\"message\":\"ffmpeg could not be started to decode the sound\"}")
            return
        }
        signal(SIGPIPE, SIG_IGN)
        decoder = p
        input = stdin.fileHandleForWriting
        try? input?.write(contentsOf: Data(ogg.header(channels: channels)))
        let path = directory.appendingPathComponent("s\(session)-audio.s16le").path
        FileManager.default.createFile(atPath: path, contents: nil)
        let pcm = FileHandle(forWritingAtPath: path)
        let reader = Thread { [self] in readDecoded(stdout.fileHandleForReading, into: pcm) }
        reader.start()
    }

    private func readDecoded(_ out: FileHandle, into pcm: FileHandle?) {
        var bytes = 0
        while true {
            let chunk = out.availableData
            if chunk.isEmpty { break }
            pcm?.write(chunk)
            bytes += chunk.count
            write("{\"event\":\"sound\",\"session\":\(session),\"samples\":\(bytes / 4),\"at\":\(MirrorFrameSink.time(Date()))}")
        }
        try? pcm?.close()
    }
}
