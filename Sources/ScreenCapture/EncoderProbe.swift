// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Glibc
import Synchronization

/// Finds the encoder to mirror with: ffmpeg lists encoders it was built with whether or not
/// the hardware behind them exists, so each hardware candidate (`VideoBackend.candidates`)
/// whose device node exists is tried with a one-second test encode of ffmpeg's test picture,
/// and the first that succeeds is used; else the software encoder, untried (it is the last
/// resort: if it fails, mirroring ends with ffmpeg's words). What each test showed is
/// remembered for the rest of the process.
public final class EncoderProbe: Sendable {
    private let ffmpeg: String
    private let devices: String
    /// What each test encode showed.
    private let found = Mutex<[VideoBackend: Bool]>([:])

    /// The probe castctl and the window share: one per process.
    public static let shared = EncoderProbe()

    /// `devices`: where the device nodes are (`/dev`; tests give a directory of their own).
    public init(ffmpeg: String = "ffmpeg", devices: String = "/dev") {
        self.ffmpeg = ffmpeg
        self.devices = devices
    }

    /// The backend for `choice`: for `auto`, a hardware H.264 encoder if one works, else a
    /// hardware VP8 one, else libx264 (docs/mirroring.md says why). Blocks while ffmpeg runs: a second or so per hardware
    /// candidate that has its device, each tried once per process.
    public func choose(_ choice: CodecChoice) -> VideoBackend {
        switch choice {
        case .vp8: return backend(for: .vp8)
        case .h264: return backend(for: .h264)
        case .auto:
            let h264 = backend(for: .h264)
            if h264.isHardware { return h264 }
            let vp8 = backend(for: .vp8)
            return vp8.isHardware ? vp8 : h264
        }
    }

    /// The first hardware candidate for `codec` whose test encode works, else the software one.
    public func backend(for codec: VideoCodec) -> VideoBackend {
        let candidates = VideoBackend.candidates(for: codec)
        return candidates.first { $0.isHardware && worksOnce($0) } ?? candidates[candidates.count - 1]
    }

    /// `works`, remembered.
    private func worksOnce(_ backend: VideoBackend) -> Bool {
        if let known = found.withLock({ $0[backend] }) { return known }
        let result = works(backend)
        found.withLock { $0[backend] = result }
        return result
    }

    /// One second of ffmpeg's test picture through `backend`, to nowhere: true when ffmpeg
    /// ended with status 0 (`timeout`: a driver that hangs must not hang mirroring's start).
    /// Without its device node a hardware encoder cannot work, and ffmpeg is not asked.
    func works(_ backend: VideoBackend) -> Bool {
        guard hasDevice(backend) else { return false }
        return ToolRun.run(["timeout", "-s", "KILL", "10", ffmpeg] + EncoderArguments.probe(backend, renderNode: renderNode))?.status == 0
    }

    /// The VA-API render node.
    var renderNode: String { devices + "/dri/renderD128" }

    /// Whether the device an encoder needs is there: VA-API's render node, NVIDIA's control
    /// node, a Video4Linux node for memory-to-memory encoders; software needs none.
    func hasDevice(_ backend: VideoBackend) -> Bool {
        switch backend {
        case .vp8VAAPI, .h264VAAPI: access(renderNode, R_OK | W_OK) == 0
        case .h264NVENC: access(devices + "/nvidiactl", F_OK) == 0
        case .h264V4L2M2M: hasEntry(in: devices, prefix: "video")
        case .libvpx, .libx264: true
        }
    }

    private func hasEntry(in directory: String, prefix: String) -> Bool {
        guard let dir = opendir(directory) else { return false }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix(prefix) { return true }
        }
        return false
    }
}
