// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import AsyncHTTPClient
import CastProtocol
import Foundation
import NIOCore
import XCTest

@testable import LocalMedia

/// The planner on probes of real files made by ffmpeg here (skipped without Debian's
/// ffmpeg), and HLS made on demand served by the real server and read by AsyncHTTPClient
/// and ffprobe.
final class TranscodeTests: XCTestCase {
    var dir: String!

    override func setUp() async throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "ffmpeg is not installed")
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-transcode-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() async throws {
        if let dir { try? FileManager.default.removeItem(atPath: dir) }
    }

    func ffmpeg(_ args: [String]) throws { try makeWithFFmpeg(args) }

    let picture = ["-f", "lavfi", "-i", "testsrc=size=160x90:rate=10:duration=8"]
    let tone = ["-f", "lavfi", "-i", "sine=frequency=440:duration=8"]

    func plan(_ file: String, model: String? = nil, burn: Int? = nil) async throws -> ConversionPlan {
        try await MediaShare(port: .exactly(0)).plan(file: "\(dir!)/\(file)", model: model, burnSubtitles: burn).1
    }

    func actions(_ p: ConversionPlan) -> [String] { p.steps.map { "\($0.stream.codecType ?? "?"):\($0.action.rawValue)" } }

    func testHEVCWithAC3AndTwoLanguagesAndEmbeddedSubtitles() async throws {
        try Data("1\n00:00:01,000 --> 00:00:03,000\nBonjour\n".utf8).write(to: URL(fileURLWithPath: "\(dir!)/fr.srt"))
        try ffmpeg(
            picture + tone + ["-f", "lavfi", "-i", "sine=frequency=660:duration=8", "-i", "\(dir!)/fr.srt"] + [
                "-map", "0", "-map", "1", "-map", "2", "-map", "3", "-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-x265-params",
                "log-level=error", "-c:a", "ac3", "-ac:a:0", "6", "-c:s", "srt", "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=ger",
                "-metadata:s:s:0", "language=fre", "-disposition:s:0", "forced", "\(dir!)/film.mkv",
            ])
        let cc = try await plan("film.mkv", model: "Chromecast")
        XCTAssertEqual(cc.delivery, .hls)
        XCTAssertEqual(actions(cc), ["video:convert", "audio:convert", "audio:convert", "subtitle:text track"])
        XCTAssertTrue(cc.video!.reason.contains("no HEVC"), cc.video!.reason)
        XCTAssertTrue(cc.audio[0].reason.contains("AC-3"), cc.audio[0].reason)
        XCTAssertEqual(cc.audio[0].stream.channels, 6)
        XCTAssertEqual(cc.audio.map { $0.stream.language }, ["eng", "ger"])
        XCTAssertEqual(cc.textSubtitles.first?.stream.isForced, true)

        let ultra = try await plan("film.mkv", model: "Chromecast Ultra")
        XCTAssertEqual(actions(ultra), ["video:remux", "audio:convert", "audio:convert", "subtitle:text track"])
        XCTAssertEqual(ultra.device, .ultra)
        // Unknown models get the conservative column.
        let unknown = try await plan("film.mkv", model: "Living Room Speaker")
        XCTAssertEqual(unknown.video?.action, .convert)
        XCTAssertEqual(unknown.device.name, DeviceCapabilities.conservative.name)
    }

    func testTenBitH264IsConvertedAndEightBitCopied() async throws {
        try ffmpeg(picture + tone + ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p10le", "-c:a", "aac", "\(dir!)/ten.mkv"])
        try ffmpeg(picture + tone + ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "\(dir!)/eight.mkv"])
        let ten = try await plan("ten.mkv", model: "Chromecast with Google TV")
        XCTAssertEqual(ten.video?.stream.bitDepth, 10)
        XCTAssertEqual(actions(ten), ["video:convert", "audio:remux"])
        XCTAssertTrue(ten.video!.reason.contains("10-bit H.264"), ten.video!.reason)
        let eight = try await plan("eight.mkv")
        XCTAssertEqual(actions(eight), ["video:remux", "audio:remux"], "Matroska with H.264/AAC is only repackaged")
    }

    func testVP9OpusWebMDependsOnTheModel() async throws {
        try ffmpeg(
            picture + tone + ["-c:v", "libvpx-vp9", "-pix_fmt", "yuv420p", "-deadline", "realtime", "-cpu-used", "8", "-c:a", "libopus", "\(dir!)/clip.webm"])
        let cc = try await plan("clip.webm", model: "Chromecast")
        XCTAssertEqual(actions(cc), ["video:convert", "audio:convert"])
        let ultra = try await plan("clip.webm", model: "Chromecast Ultra")
        XCTAssertEqual(ultra.delivery, .direct)
        XCTAssertEqual(actions(ultra), ["video:direct", "audio:direct"])
    }

    func testFLACWithCoverArtIsServedAsItIs() async throws {
        try ffmpeg(["-f", "lavfi", "-i", "color=c=blue:size=32x32", "-frames:v", "1", "\(dir!)/c.png"])
        try ffmpeg(
            tone + ["-i", "\(dir!)/c.png", "-map", "0", "-map", "1", "-c:a", "flac", "-c:v", "png", "-disposition:v", "attached_pic", "\(dir!)/song.flac"])
        let p = try await plan("song.flac")
        XCTAssertEqual(p.delivery, .direct)
        XCTAssertEqual(actions(p), ["audio:direct", "video:artwork"])
        XCTAssertNil(p.video)
    }

    func testMPEG4Part2AVIAndBurnChecks() async throws {
        try ffmpeg(picture + tone + ["-c:v", "mpeg4", "-c:a", "libmp3lame", "\(dir!)/old.avi"])
        let p = try await plan("old.avi")
        XCTAssertEqual(actions(p), ["video:convert", "audio:remux"])
        XCTAssertEqual(p.lines(fileName: "old.avi").first, "old.avi on unknown model (conservative): served as HLS made on demand; 1 stream(s) converted.")
        do {
            _ = try await plan("old.avi", burn: 1)
            XCTFail("burning subtitles a file does not have must fail")
        } catch let e as LocalMediaError {
            XCTAssertEqual(e.description, "--burn-subtitles 1: the file has no embedded subtitles.")
        }
    }

    func testCapabilityTableByModel() {
        XCTAssertEqual(DeviceCapabilities.forModel("Chromecast"), .chromecast)
        XCTAssertEqual(DeviceCapabilities.forModel("chromecast  ultra"), .ultra)
        XCTAssertEqual(DeviceCapabilities.forModel("Google TV Streamer").av1, true)
        XCTAssertEqual(DeviceCapabilities.forModel(nil), .conservative)
        XCTAssertEqual(HLSSession.codecString(stream(codec: "h264", profile: "High", level: 41)), "avc1.640029")
        XCTAssertEqual(HLSSession.codecString(stream(codec: "h264", profile: "Main", level: 30)), "avc1.4d001e")
        XCTAssertEqual(HLSSession.codecString(stream(codec: "hevc", profile: "Main 10", level: 120)), "hvc1.2.4.L120.B0")
    }

    func stream(codec: String, profile: String, level: Int) -> MediaProbe.Stream {
        let json = #"{"index":0,"codec_type":"video","codec_name":"\#(codec)","profile":"\#(profile)","level":\#(level)}"#
        return try! JSONDecoder().decode(MediaProbe.Stream.self, from: Data(json.utf8))
    }

    /// Finished segments as ranges: every run, in order, however many seeks made them.
    func testProducedRangesAreEveryRunOfSegments() {
        let boundaries = [0.0, 6, 12, 18, 24, 30, 36]
        XCTAssertEqual(HLSSession.ranges(of: [], boundaries: boundaries, end: 40), [])
        XCTAssertEqual(HLSSession.ranges(of: [0, 1, 2], boundaries: boundaries, end: 40), [0..<18])
        XCTAssertEqual(HLSSession.ranges(of: [0, 1, 4, 6], boundaries: boundaries, end: 40), [0..<12, 24..<30, 36..<40])
        XCTAssertEqual(HLSSession.ranges(of: Set(0...6), boundaries: boundaries, end: 40), [0..<40])
        // A source whose timeline starts later counts from its first boundary.
        XCTAssertEqual(HLSSession.ranges(of: [1], boundaries: [10, 16, 22], end: 25), [6..<12])
    }

    /// HLS over the real server: playlists cover the whole duration, a segment far ahead is
    /// made on demand by a restarted converter, and ending the cast leaves no process and no folder.
    func testHLSOnDemandWithSeekRestartAndCleanEnd() async throws {
        try ffmpeg(
            ["-f", "lavfi", "-i", "testsrc=size=160x90:rate=10:duration=40", "-f", "lavfi", "-i", "sine=duration=40"]
                + ["-c:v", "mpeg4", "-c:a", "ac3", "\(dir!)/long.avi"])
        let scratch = "\(dir!)/scratch"
        // A leftover of a process that is gone is swept at the first conversion.
        try FileManager.default.createDirectory(atPath: "\(scratch)/999999999-1", withIntermediateDirectories: true)
        let share = MediaShare(port: .exactly(0), scratchRoot: scratch)
        let cast = try await share.prepare(file: "\(dir!)/long.avi", device: "127.0.0.1", localAddress: "127.0.0.1")
        let hls = try XCTUnwrap(cast.hls)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(scratch)/999999999-1"))
        XCTAssertEqual(cast.media.contentType, "application/x-mpegurl")
        XCTAssertEqual(hls.boundaries.count, 40)  // converted video: 40 s in 1 s segments
        let base = String(cast.media.contentId.dropLast("master.m3u8".count))

        let master = try await get(cast.media.contentId)
        XCTAssertTrue(master.body.contains("CODECS=\"avc1.640029,mp4a.40.2\""), master.body)
        XCTAssertEqual(master.cors, "*")
        let video = try await get(base + "v.m3u8").body
        let total = video.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }.compactMap { Double($0.dropFirst(8).dropLast()) }.reduce(0, +)
        XCTAssertEqual(total, 40, accuracy: 0.5)
        XCTAssertTrue(video.hasSuffix("#EXT-X-ENDLIST\n"))

        // The last segment: asked for at once, made by a converter started there.
        let last = try await get(base + "v_00039.ts", binary: true)
        XCTAssertEqual(last.status, 200)
        XCTAssertEqual(last.bytes.first, 0x47, "MPEG-TS")
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(hls.directory)/v_00039.ts"))
        // Then the start again (reused or made again) and a name outside the playlist.
        let first = try await get(base + "a0_00000.ts", binary: true)
        XCTAssertEqual(first.status, 200)
        // What is made reaches from the start to the end segment made after the seek, whether the
        // runs have met or not (issue 35: the band showed only the first run).
        // (The picture of the first segment may come a moment after its sound.)
        var made = hls.producedRanges
        for _ in 0..<100 where made.first?.lowerBound != 0 {
            try await Task.sleep(for: .milliseconds(50))
            made = hls.producedRanges
        }
        XCTAssertEqual(made.first?.lowerBound, 0, "\(made)")
        XCTAssertEqual(made.last?.upperBound ?? 0, 40, accuracy: 0.5, "\(made)")
        let outside = try await get(base + "v_00099.ts").status
        XCTAssertEqual(outside, 404)
        let traversal = try await get(base + "..%2Fetc.ts").status
        XCTAssertEqual(traversal, 404)

        let directory = hls.directory
        await share.end(cast)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory), "the scratch folder goes with the cast")
        for _ in 0..<50 where ConverterProcess.liveCount > 0 { try await Task.sleep(for: .milliseconds(100)) }
        XCTAssertEqual(ConverterProcess.liveCount, 0, "no converter outlives the cast")
    }

    /// A converter killed from outside (it lives: 120 s is more than the ten segments it
    /// makes before pausing) ends the cast with a sentence, and asking for a segment
    /// then fails with it rather than hanging.
    func testAConverterThatDiesIsReported() async throws {
        try ffmpeg(
            ["-f", "lavfi", "-i", "testsrc=size=160x90:rate=5:duration=120", "-f", "lavfi", "-i", "sine=duration=120"]
                + ["-c:v", "mpeg4", "-c:a", "ac3", "\(dir!)/long.avi"])
        let share = MediaShare(port: .exactly(0), scratchRoot: "\(dir!)/scratch")
        let cast = try await share.prepare(file: "\(dir!)/long.avi", device: "127.0.0.1", localAddress: "127.0.0.1")
        let hls = try XCTUnwrap(cast.hls)
        let pid = try XCTUnwrap(hls.converterPID)
        kill(pid, SIGKILL)
        let sentence = await hls.nextFailure()
        XCTAssertEqual(sentence?.hasPrefix("ffmpeg stopped (killed by signal 9)"), true, sentence ?? "nil")
        if case .success = await hls.segment("v", 6) { XCTFail("a segment after the converter died must fail") }
        await share.end(cast)
    }

    struct Got {
        var status: UInt
        var body: String
        var bytes: [UInt8]
        var cors: String?
    }

    func get(_ url: String, binary: Bool = false) async throws -> Got {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Origin", value: "https://www.gstatic.com")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 16 << 20)
        let bytes = Array(body.readableBytesView)
        return Got(
            status: response.status.code, body: binary ? "" : String(decoding: bytes, as: UTF8.self), bytes: bytes,
            cors: response.headers.first(name: "Access-Control-Allow-Origin"))
    }
}
