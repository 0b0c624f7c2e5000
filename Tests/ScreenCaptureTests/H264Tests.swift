// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation
import XCTest

@testable import ScreenCapture

/// H.264 for mirroring: the Annex B access unit reader (hand-made streams, hostile ones, and a
/// real libx264 stream from ffmpeg) and the encoder probe.
final class H264Tests: XCTestCase {
    // NAL units with four- and three-byte start codes: a delimiter, parameter sets, slices.
    let aud: [UInt8] = [0, 0, 0, 1, 0x09, 0xF0]
    let sps: [UInt8] = [0, 0, 0, 1, 0x67, 0x4D, 0x40, 0x28, 0x95]
    let pps: [UInt8] = [0, 0, 0, 1, 0x68, 0xEE, 0x3C, 0x80]
    /// An IDR slice beginning a picture (first_mb_in_slice 0: the first bit is 1).
    func idr(_ n: UInt8) -> [UInt8] { [0, 0, 1, 0x65, 0x88, 0x84, n, 0x21] }
    /// A slice beginning a picture that is not IDR.
    func slice(_ n: UInt8) -> [UInt8] { [0, 0, 1, 0x41, 0x9A, n, 0x07] }
    /// A second slice of the same picture (first_mb_in_slice > 0: the first bit is 0).
    func laterSlice(_ n: UInt8) -> [UInt8] { [0, 0, 1, 0x41, 0x40, n, 0x01] }

    func read(_ stream: [UInt8], pieces: Int) throws -> [EncodedVideoFrame] {
        var reader = AnnexBReader()
        var got: [EncodedVideoFrame] = []
        var i = 0
        while i < stream.count {
            got += try reader.append(stream[i..<min(i + pieces, stream.count)])
            i += pieces
        }
        if let last = reader.finish() { got.append(last) }
        return got
    }

    func testAccessUnitsAreSplitOnDelimitersInPiecesOfAnySize() throws {
        let units = [aud + sps + pps + idr(1), aud + slice(2) + laterSlice(3), aud + slice(4)]
        // Bytes before the first delimiter are not a picture, nor is a delimiter alone.
        let stream = [0x00, 0x7F, 0x00] + units[0] + units[1] + aud + units[2]
        for pieces in [1, 2, 3, 5, 7, 4096] {
            let frames = try read(stream, pieces: pieces)
            XCTAssertEqual(frames.map(\.data), units, "pieces of \(pieces)")
            XCTAssertEqual(frames.map(\.isKey), [true, false, false], "pieces of \(pieces)")
            XCTAssertEqual(frames.map(\.pts), [0, 1, 2])
        }
    }

    func testAUnitIsHandedOutWhenTheNextDelimiterArrives() throws {
        var reader = AnnexBReader()
        XCTAssertEqual(try reader.append(aud + sps + pps + idr(1)), [])
        let out = try reader.append(aud)
        XCTAssertEqual(out.map(\.data), [aud + sps + pps + idr(1)])
    }

    func testTwoPicturesWithoutADelimiterAreRefused() {
        var reader = AnnexBReader()
        XCTAssertThrowsError(try reader.append(sps + pps + idr(1) + slice(2))) { XCTAssertEqual($0 as? AnnexBReader.ReadError, .noDelimiters) }
        var inUnit = AnnexBReader()
        XCTAssertThrowsError(try inUnit.append(aud + idr(1) + slice(2) + aud)) { XCTAssertEqual($0 as? AnnexBReader.ReadError, .noDelimiters) }
    }

    func testBytesThatAreNotH264AreRefusedWithoutGrowingForever() {
        var reader = AnnexBReader()
        var thrown: AnnexBReader.ReadError?
        var fed = 0
        let chunk = [UInt8](repeating: 0xA5, count: 65536)
        while thrown == nil, fed < 4 << 20 {
            do { _ = try reader.append(chunk) } catch let e as AnnexBReader.ReadError { thrown = e } catch {}
            fed += chunk.count
        }
        XCTAssertEqual(thrown, .notH264)
        XCTAssertLessThanOrEqual(fed, (1 << 20) + chunk.count)
    }

    func testAnAccessUnitLargerThanAnyPictureIsRefused() {
        var reader = AnnexBReader()
        let body = [UInt8](repeating: 0x55, count: AnnexBReader.maxAccessUnitBytes)
        XCTAssertThrowsError(try reader.append(aud + idr(1) + body)) {
            XCTAssertEqual($0 as? AnnexBReader.ReadError, .accessUnitTooLarge(AnnexBReader.maxAccessUnitBytes))
        }
    }

    func testH264ArgumentsWriteAnnexBWithDelimitersForEveryEncoder() {
        let plan = VideoPlan(size: PixelSize(width: 1280, height: 720), fps: 30, bitRate: 3_000_000, encoder: .libx264)
        let x264 = EncoderArguments.video(source: .x11Screen(display: ":99"), plan: plan)
        for pair in [
            ["-c:v", "libx264"], ["-tune", "zerolatency"], ["-bsf:v", "h264_mp4toannexb,h264_metadata=aud=insert"], ["-f", "h264"], ["-g", "300"],
        ] {
            XCTAssertNotNil(x264.indices.first { x264[$0] == pair[0] && x264[$0 + 1] == pair[1] }, "\(pair)")
        }
        var vaapi = plan
        vaapi.encoder = .h264VAAPI
        let hw = EncoderArguments.video(source: .x11Screen(display: ":99"), plan: vaapi)
        // The device is opened before the input; frames are uploaded to it after scaling.
        XCTAssertLessThan(hw.firstIndex(of: "-vaapi_device")!, hw.firstIndex(of: "x11grab")!)
        XCTAssertTrue(hw.contains("scale=1280:720:flags=bilinear,format=nv12,hwupload"))
        XCTAssertTrue(hw.contains(EncoderArguments.h264Filters))
        XCTAssertEqual(hw[hw.firstIndex(of: "-bf")! + 1], "0")
        XCTAssertFalse(
            EncoderArguments.video(source: .x11Screen(display: ":99"), plan: VideoPlan(size: plan.size, fps: 30, bitRate: 1)).contains("-vaapi_device"))
    }

    /// A real stream: ffmpeg's libx264 with the arguments mirroring uses, through the reader.
    func testLibx264OutputSplitsIntoOnePicturePerFrame() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-h264-\(getpid()).264")
        defer { try? FileManager.default.removeItem(at: file) }
        let plan = VideoPlan(size: PixelSize(width: 320, height: 240), fps: 30, bitRate: 500_000, encoder: .libx264)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments =
            ["ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-frames:v", "45"]
            + EncoderArguments.codecArguments(.libx264, plan: plan, keyInterval: 1) + ["-bsf:v", EncoderArguments.h264Filters, "-f", "h264", "-y", file.path]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        let frames = try read(Array(try Data(contentsOf: file)), pieces: 1000)
        XCTAssertEqual(frames.count, 45)
        // A key frame every second (-g 30): pictures 0 and 30.
        XCTAssertEqual(frames.indices.filter { frames[$0].isKey }, [0, 30])
        XCTAssertTrue(frames.allSatisfy { $0.data.starts(with: [0, 0, 0, 1, 0x09]) })
    }
}

/// The probe against a fake ffmpeg (a shell script) and a fake /dev: the branch where hardware
/// works cannot be run for real here (no GPU on this machine or CI), so the script plays an
/// ffmpeg whose chosen encoders succeed. The branch without hardware runs the real ffmpeg.
final class EncoderProbeTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-probe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    /// An ffmpeg that logs its arguments and succeeds only for the encoders in `working`.
    func fakeFFmpeg(working: [String]) throws -> (ffmpeg: String, log: URL) {
        let script = directory.appendingPathComponent("ffmpeg"), log = directory.appendingPathComponent("calls")
        let cases = working.map { "*\" -c:v \($0) \"*) exit 0 ;;" }.joined(separator: "\n  ")
        try """
        #!/bin/sh
        echo "$*" >> '\(log.path)'
        case " $* " in
          \(cases)
        esac
        echo "Device creation failed" >&2
        exit 1
        """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return (script.path, log)
    }

    func calls(_ log: URL) -> [String] { ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }

    /// A directory standing in for /dev with the given device nodes (empty files).
    func devices(_ nodes: [String]) throws -> String {
        let dev = directory.appendingPathComponent("dev")
        try FileManager.default.createDirectory(at: dev.appendingPathComponent("dri"), withIntermediateDirectories: true)
        for node in nodes { FileManager.default.createFile(atPath: dev.appendingPathComponent(node).path, contents: nil) }
        return dev.path
    }

    func testWorkingVAAPIHardwareIsChosenForAutoAndRemembered() throws {
        let (ffmpeg, log) = try fakeFFmpeg(working: ["h264_vaapi"])
        let dev = try devices(["dri/renderD128", "nvidiactl", "video11"])
        let probe = EncoderProbe(ffmpeg: ffmpeg, devices: dev)
        XCTAssertEqual(probe.choose(.auto), .h264VAAPI)
        XCTAssertEqual(calls(log).count, 1)
        XCTAssertTrue(calls(log)[0].contains("-vaapi_device \(dev)/dri/renderD128"))
        XCTAssertTrue(calls(log)[0].contains("hwupload"))
        // Asked again (a renegotiation, the window): no new test encode.
        XCTAssertEqual(probe.choose(.auto), .h264VAAPI)
        XCTAssertEqual(probe.choose(.h264), .h264VAAPI)
        XCTAssertEqual(calls(log).count, 1)
        // vp8_vaapi fails here: libvpx, which is not tried (it is the last resort).
        XCTAssertEqual(probe.choose(.vp8), .libvpx)
        XCTAssertEqual(calls(log).count, 2)
        XCTAssertTrue(calls(log)[1].contains("-c:v vp8_vaapi"))
    }

    func testNVENCAfterFailedVAAPIAndV4L2() throws {
        let (ffmpeg, log) = try fakeFFmpeg(working: ["h264_nvenc"])
        let dev = try devices(["dri/renderD128", "nvidiactl", "video0"])
        XCTAssertEqual(EncoderProbe(ffmpeg: ffmpeg, devices: dev).choose(.auto), .h264NVENC)
        XCTAssertEqual(calls(log).map { $0.components(separatedBy: " -c:v ")[1].prefix { $0 != " " } }, ["h264_vaapi", "h264_v4l2m2m", "h264_nvenc"])
    }

    func testWithoutDeviceNodesNoHardwareIsTriedAndAutoIsLibx264() throws {
        let (ffmpeg, log) = try fakeFFmpeg(working: ["h264_vaapi", "h264_nvenc", "h264_v4l2m2m", "vp8_vaapi"])
        let probe = EncoderProbe(ffmpeg: ffmpeg, devices: try devices([]))
        XCTAssertEqual(probe.choose(.auto), .libx264)
        XCTAssertEqual(probe.choose(.vp8), .libvpx)
        XCTAssertEqual(probe.choose(.h264), .libx264)
        XCTAssertEqual(calls(log), [])
    }

    func testWhenNoHardwareWorksTheSoftwareEncodersAreUsed() throws {
        let (ffmpeg, log) = try fakeFFmpeg(working: [])
        let probe = EncoderProbe(ffmpeg: ffmpeg, devices: try devices(["dri/renderD128", "nvidiactl", "video0"]))
        XCTAssertEqual(probe.choose(.auto), .libx264)
        XCTAssertEqual(probe.choose(.vp8), .libvpx)
        XCTAssertEqual(calls(log).count, 4, "each hardware encoder once: \(calls(log))")
    }

    func testAutoTakesHardwareVP8WhenNoHardwareH264Works() throws {
        let (ffmpeg, _) = try fakeFFmpeg(working: ["vp8_vaapi"])
        XCTAssertEqual(EncoderProbe(ffmpeg: ffmpeg, devices: try devices(["dri/renderD128"])).choose(.auto), .vp8VAAPI)
    }

    /// The real ffmpeg and /dev. On this machine and CI there is no GPU: the hardware encoders
    /// fail cleanly (no device node, or ffmpeg's test encode fails) and the software ones are
    /// chosen, and work. Where a hardware encoder works, it comes first.
    func testRealFFmpegChoosesTheFirstEncoderThatWorks() {
        let probe = EncoderProbe()
        for codec in VideoCodec.allCases {
            let chosen = probe.choose(codec == .vp8 ? .vp8 : .h264)
            let candidates = VideoBackend.candidates(for: codec)
            XCTAssertTrue(probe.works(chosen), "\(chosen)")
            for earlier in candidates[..<candidates.firstIndex(of: chosen)!] { XCTAssertFalse(probe.works(earlier), "\(earlier)") }
        }
        let (h264, vp8) = (probe.choose(.h264), probe.choose(.vp8))
        XCTAssertEqual(probe.choose(.auto), h264.isHardware || !vp8.isHardware ? h264 : vp8)
    }
}
