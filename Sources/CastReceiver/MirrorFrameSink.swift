// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastStreaming
import Foundation
import ScreenCapture

/// Where the simulator's Cast Streaming receiver puts what it got (`--mirror-output DIR`), for
/// tests to read: `frames.jsonl`, one JSON line per frame received (`"event": "received"`:
/// session, stream, frame id, key flag, bytes, time) and per picture decoded (`"decoded"`:
/// its number, time, mean brightness 0–255 of a 64x36 grey copy); and every 15th decoded
/// picture as `sN-frame-NNNNN.png`. ffmpeg decodes the VP8 or H.264 frames, fed to it as IVF
/// (for H.264, Annex B access units as IVF frames of fourcc "H264": the frame ends where IVF
/// says, whereas `-f h264` would hold every picture until the next one began), with one
/// decoding thread (more threads hold a frame each, which a device's decoder does not) and
/// every picture passed on (H.264 states its frame rate, and ffmpeg would otherwise drop
/// pictures whose timestamps, frame ids, come closer than that). With
/// CASTDECK_MIRROR_GRAY=1 in the environment every picture is also appended, 160x90 grey, to
/// `sN-gray-160x90.raw`, in the order of the `decoded` lines (the glass-to-glass benchmark
/// reads its frame counter there, Benchmarks/mirror). Opus audio goes to a `MirrorSoundSink`.
final class MirrorFrameSink: @unchecked Sendable {
    let directory: URL
    let session: Int
    private let queue = DispatchQueue(label: "castdeck.receiver.mirror")
    private let lock = NSLock()
    private var log: FileHandle?
    private var decoder: Process?
    private var input: FileHandle?
    private var decoded = 0
    private let sound: MirrorSoundSink
    private var hasSound = false
    static let thumb = (width: 64, height: 36)

    init(directory: String, session: Int) {
        self.directory = URL(fileURLWithPath: directory)
        self.session = session
        sound = MirrorSoundSink(directory: self.directory, session: session)
        try? FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
        let path = self.directory.appendingPathComponent("frames.jsonl").path
        if !FileManager.default.fileExists(atPath: path) { FileManager.default.createFile(atPath: path, contents: nil) }
        log = FileHandle(forWritingAtPath: path)
        log?.seekToEndOfFile()
        sound.log = { [weak self] line in self?.write(line) }
    }

    func take(_ frame: ReceivedFrame) {
        let kind = frame.stream.kind == .video ? "video" : "audio"
        write(
            "{\"event\":\"received\",\"session\":\(session),\"stream\":\"\(kind)\",\"frame\":\(frame.frameID),\"key\":\(frame.isKey),"
                + "\"bytes\":\(frame.data.count),\"at\":\(Self.time(frame.receivedAt))}")
        if frame.stream.kind == .audio, frame.stream.codecName == "opus" {
            lock.withLock { hasSound = true }
            return sound.take(frame)
        }
        guard frame.stream.kind == .video, let fourcc = Self.fourcc[frame.stream.codecName] else { return }
        queue.async { [self] in
            if decoder == nil { startDecoder(frame.stream, fourcc: fourcc) }
            try? input?.write(contentsOf: Data(IVFWriter.frame(frame.data, pts: UInt64(frame.frameID))))
        }
    }

    func close() {
        queue.async { [self] in
            try? input?.close()
            input = nil
            decoder?.waitUntilExit()
            let closeLog: @Sendable () -> Void = { [self] in
                lock.withLock {
                    try? log?.close()
                    log = nil
                }
            }
            if lock.withLock({ hasSound }) { sound.close(then: closeLog) } else { closeLog() }
        }
    }

    /// The IVF fourcc of each codec the decoder takes.
    static let fourcc = ["vp8": "VP80", "h264": "H264"]

    private func startDecoder(_ stream: OfferedStream, fourcc: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let png = directory.appendingPathComponent("s\(session)-frame-%05d.png").path
        p.arguments = [
            "ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error", "-threads", "1", "-f", "ivf", "-i", "pipe:0",
            "-map", "0:v", "-vf", "select=not(mod(n\\,15))", "-fps_mode", "passthrough", png,
            "-map", "0:v", "-vf", "scale=\(Self.thumb.width):\(Self.thumb.height),format=gray", "-fps_mode", "passthrough", "-f", "rawvideo", "pipe:1",
        ]
        if ProcessInfo.processInfo.environment["CASTDECK_MIRROR_GRAY"] == "1" {
            let gray = directory.appendingPathComponent("s\(session)-gray-160x90.raw").path
            p.arguments! += ["-map", "0:v", "-vf", "scale=160:90,format=gray", "-fps_mode", "passthrough", "-f", "rawvideo", gray]
        }
        let stdin = Pipe(), stdout = Pipe()
        p.standardInput = stdin
        p.standardOutput = stdout
        p.standardError = FileHandle.standardError
        do { try p.run() } catch {
            write("{\"event\":\"error\",\"session\":\(session),\"message\":\"ffmpeg could not be started\"}")
            return
        }
        decoder = p
        input = stdin.fileHandleForWriting
        // A decoder that quits must not take the simulator with it (SIGPIPE).
        signal(SIGPIPE, SIG_IGN)
        try? input?.write(contentsOf: Data(IVFWriter.header(fourcc: fourcc, size: PixelSize(width: stream.width ?? 1280, height: stream.height ?? 720))))
        let reader = Thread { [self] in readDecoded(stdout.fileHandleForReading) }
        reader.start()
    }

    private func readDecoded(_ out: FileHandle) {
        let size = Self.thumb.width * Self.thumb.height
        var pending: [UInt8] = []
        while true {
            let chunk = out.availableData
            if chunk.isEmpty { return }
            pending += chunk
            while pending.count >= size {
                let picture = pending.prefix(size)
                let luma = picture.reduce(0) { $0 + Int($1) } / size
                pending.removeFirst(size)
                decoded += 1
                write("{\"event\":\"decoded\",\"session\":\(session),\"picture\":\(decoded),\"at\":\(Self.time(Date())),\"luma\":\(luma)}")
            }
        }
    }

    private func write(_ line: String) {
        lock.withLock { log?.write(Data((line + "\n").utf8)) }
    }

    static func time(_ d: Date) -> String { String(format: "%.3f", d.timeIntervalSince1970) }
}
