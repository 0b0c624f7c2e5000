// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation
import XCTest

@testable import LocalMedia

/// The shortcuts on the way to the first frame, on real files made by ffmpeg here: the probe
/// cache (by file version, per ffprobe), keyframe boundaries read through the container's
/// index matching the rule, surround sound passed through by the setting, and the split
/// between inspecting a file and sharing it.
final class PlayPathTests: XCTestCase {
    var dir: String!

    override func setUp() async throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "ffmpeg is not installed")
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-play-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() async throws {
        if let dir { try? FileManager.default.removeItem(atPath: dir) }
    }

    /// A Matroska file of `seconds` with a keyframe every `gop` frames at 10 fps, and AC-3 5.1 or AAC sound.
    func film(_ name: String, seconds: Int = 40, gop: Int = 20, ac3: Bool = false) throws -> String {
        let path = "\(dir!)/\(name)"
        try makeWithFFmpeg(
            [
                "-f", "lavfi", "-i", "testsrc=size=160x90:rate=10:duration=\(seconds)", "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)",
                "-c:v", "libx264", "-g", "\(gop)", "-keyint_min", "\(gop)", "-sc_threshold", "0", "-pix_fmt", "yuv420p",
            ] + (ac3 ? ["-c:a", "ac3", "-ac", "6"] : ["-c:a", "aac"]) + [path])
        return path
    }

    func testFileStampFollowsTheFileVersionNotItsName() throws {
        let a = "\(dir!)/a.bin"
        try Data("one".utf8).write(to: URL(fileURLWithPath: a))
        let first = try XCTUnwrap(FileStamp(path: a))
        let b = "\(dir!)/b.bin"
        try FileManager.default.moveItem(atPath: a, toPath: b)
        XCTAssertEqual(FileStamp(path: b), first, "a rename keeps the version")
        try Data("two!".utf8).write(to: URL(fileURLWithPath: b))
        XCTAssertNotEqual(FileStamp(path: b), first, "writing makes a new version")
        XCTAssertNil(FileStamp(path: "\(dir!)/missing"))
        XCTAssertNotEqual(first.key(tool: "ffprobe"), first.key(tool: "/opt/other/ffprobe"), "another ffprobe has its own answers")
    }

    func testCacheKeepsEntriesOnDiskAndIgnoresDamagedOnes() throws {
        let file = "\(dir!)/x.bin"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let stamp = try XCTUnwrap(FileStamp(path: file))
        let folder = "\(dir!)/probe"
        ProbeCache(directory: folder).update(stamp, tool: "ffprobe") {
            $0.probe = "{}"
            $0.keyframes["0"] = [0, 6.2]
        }
        // A new process: only the disk.
        let again = ProbeCache(directory: folder).entry(stamp, tool: "ffprobe")
        XCTAssertEqual(again?.probe, "{}")
        XCTAssertEqual(again?.keyframes["0"], [0, 6.2])
        XCTAssertNil(ProbeCache(directory: folder).entry(stamp, tool: "other"))
        let attributes = try FileManager.default.attributesOfItem(atPath: "\(folder)/\(stamp.key(tool: "ffprobe")).json")
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        try Data("not json".utf8).write(to: URL(fileURLWithPath: "\(folder)/\(stamp.key(tool: "ffprobe")).json"))
        XCTAssertNil(ProbeCache(directory: folder).entry(stamp, tool: "ffprobe"), "a damaged file is a miss, not an error")
        // Only the newest `limit` files stay.
        let small = ProbeCache(directory: "\(dir!)/small", limit: 2)
        for i in 0..<4 {
            let f = "\(dir!)/f\(i)"
            try Data([UInt8(i)]).write(to: URL(fileURLWithPath: f))
            small.update(try XCTUnwrap(FileStamp(path: f)), tool: "ffprobe") { $0.probe = "\(i)" }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: "\(dir!)/small").count, 2)
    }

    func testProbeIsAnsweredFromTheCacheTheSecondTime() async throws {
        let path = try film("cached.mkv", seconds: 4)
        let first = try await MediaProbe.run(path: path)
        // A tool that cannot run: the answer must come from the cache.
        let stamp = try XCTUnwrap(FileStamp(path: path))
        XCTAssertNotNil(ProbeCache.shared.entry(stamp, tool: "ffprobe")?.probe)
        let again = try await MediaProbe.run(path: path)
        XCTAssertEqual(first, again)
        // Written to: a new version, probed again (here by a tool that fails, so it shows).
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data([0]))
        try handle.close()
        do {
            _ = try await MediaProbe.run(path: path, ffprobe: "\(dir!)/no-such-ffprobe")
            XCTFail("a changed file must be probed again")
        } catch {}
    }

    func testIndexedKeyframesStartSegmentsOnRealKeyframes() async throws {
        // Keyframes every 2 s: the index gives one at or before every 6 s.
        let path = try film("gop2.mkv", seconds: 40, gop: 20)
        let probe = try await MediaProbe.run(path: path)
        let end = probe.format.duration ?? 40
        let scanned = try await HLSSession.keyframeBoundaries(
            path: path, stream: 0, ffprobe: "ffprobe", start: 0, end: end, indexed: false, fileName: "gop2.mkv")
        let stamp = try XCTUnwrap(FileStamp(path: path))
        ProbeCache.shared.update(stamp, tool: "ffprobe") { $0.keyframes = [:] }
        let indexed = try await HLSSession.keyframeBoundaries(
            path: path, stream: 0, ffprobe: "ffprobe", start: 0, end: end, indexed: true, fileName: "gop2.mkv")
        XCTAssertEqual(scanned.first ?? -1, 0, accuracy: 0.05)
        XCTAssertEqual(indexed.first ?? -1, 0, accuracy: 0.05)
        // Every boundary is a keyframe (a multiple of 2 s here), segments between 3 and 8 s.
        for b in indexed {
            XCTAssertEqual(b.truncatingRemainder(dividingBy: 2), 0, accuracy: 0.05, "\(indexed)")
        }
        for (a, b) in zip(indexed, indexed.dropFirst()) {
            XCTAssertTrue((3...8.05).contains(b - a), "segment \(a)–\(b) in \(indexed)")
        }
        XCTAssertGreaterThanOrEqual(indexed.count, 5)
        // Remembered: the same boundaries without ffprobe.
        let remembered = try await HLSSession.keyframeBoundaries(
            path: path, stream: 0, ffprobe: "ffprobe", start: 0, end: end, indexed: true, fileName: "gop2.mkv")
        XCTAssertEqual(remembered, indexed)
        XCTAssertTrue(HLSSession.hasKeyframeIndex("matroska,webm"))
        XCTAssertTrue(HLSSession.hasKeyframeIndex("mov,mp4,m4a,3gp,3g2,mj2"))
        XCTAssertFalse(HLSSession.hasKeyframeIndex("mpegts"))
    }

    func testSurroundIsPassedThroughOnlyWithTheSetting() async throws {
        let path = try film("surround.mkv", seconds: 4, ac3: true)
        let share = MediaShare(port: .exactly(0))
        let stereo = try await share.plan(file: path, model: "Chromecast").1
        XCTAssertEqual(stereo.audio.first?.action, .convert)
        XCTAssertTrue(stereo.audio.first?.reason.contains("“Send surround sound as is” is off") == true, stereo.audio.first?.reason ?? "")
        let surround = try await share.plan(file: path, model: "Chromecast", surround: true).1
        XCTAssertEqual(surround.audio.first?.action, .remux)
        XCTAssertTrue(surround.audio.first?.reason.contains("AV receiver") == true)
        XCTAssertEqual(surround.video?.action, .remux)
        // DTS is never passed: Cast devices do not hand it to HDMI.
        func audio(_ codec: String) throws -> MediaProbe.Stream {
            try JSONDecoder().decode(MediaProbe.Stream.self, from: Data(#"{"index":1,"codec_type":"audio","codec_name":"\#(codec)","channels":6}"#.utf8))
        }
        XCTAssertNotNil(DeviceCapabilities.chromecast.passingSurround(true).audioProblem(try audio("dts")))
        XCTAssertNil(DeviceCapabilities.chromecast.passingSurround(true).audioProblem(try audio("eac3")))
        XCTAssertNotNil(DeviceCapabilities.chromecast.audioProblem(try audio("eac3")))
    }

    func testInspectThenPublishSharesWhatWasPrepared() async throws {
        let path = try film("share.mkv", seconds: 8)
        try Data("1\n00:00:01,000 --> 00:00:02,000\nHello\n".utf8).write(to: URL(fileURLWithPath: "\(dir!)/share.en.srt"))
        let share = MediaShare(port: .exactly(0), scratchRoot: "\(dir!)/scratch")
        let prepared = try await share.inspect(file: path, model: "Chromecast")
        XCTAssertEqual(prepared.timings.map(\.step), ["probe", "plan", "subtitles", "segments planned"])
        XCTAssertNotNil(prepared.hls, "MKV is remuxed into HLS")
        let cast = try await share.publish(prepared, device: "127.0.0.1", localAddress: "127.0.0.1")
        XCTAssertEqual(cast.media.contentType, "application/x-mpegurl")
        XCTAssertEqual(cast.media.tracks?.first?.trackContentType, "text/vtt")
        let later = await cast.laterWarnings?.value
        XCTAssertEqual(later, [])
        await share.end(cast)
        // A prepared file that is never cast leaves no converter behind.
        let unused = try await share.inspect(file: path, model: "Chromecast")
        share.discard(unused)
        await share.stopAll()
    }
}
