// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import XCTest

@testable import ScreenCapture

final class ScreenCaptureTests: XCTestCase {
    func testIVFRoundTripInPiecesOfAnySize() throws {
        let frames = [
            EncodedVideoFrame(data: [0x10, 1, 2, 3], pts: 0, isKey: true),
            EncodedVideoFrame(data: [0x11] + [UInt8](repeating: 7, count: 3000), pts: 1, isKey: false),
            EncodedVideoFrame(data: [0x31, 9], pts: 0x1_0000_0002, isKey: false),
        ]
        var stream = IVFWriter.header(size: PixelSize(width: 640, height: 360))
        for f in frames { stream += IVFWriter.frame(f.data, pts: f.pts) }
        for piece in [1, 7, 13, 4096] {
            var reader = IVFReader()
            var got: [EncodedVideoFrame] = []
            var i = 0
            while i < stream.count {
                got += try reader.append(stream[i..<min(i + piece, stream.count)])
                i += piece
            }
            XCTAssertEqual(got, frames, "pieces of \(piece)")
            XCTAssertEqual(reader.fourcc, "VP80")
            XCTAssertEqual(reader.size, PixelSize(width: 640, height: 360))
        }
    }

    func testIVFRejectsOtherStreamsAndAbsurdFrames() {
        var reader = IVFReader()
        XCTAssertThrowsError(try reader.append([UInt8](repeating: 0x41, count: 40))) { XCTAssertEqual($0 as? IVFReader.ReadError, .notIVF) }
        var r2 = IVFReader()
        let header = IVFWriter.header(size: PixelSize(width: 2, height: 2))
        XCTAssertThrowsError(try r2.append(header + [0xFF, 0xFF, 0xFF, 0x7F] + [UInt8](repeating: 0, count: 8))) {
            XCTAssertEqual($0 as? IVFReader.ReadError, .frameTooLarge(0x7FFF_FFFF))
        }
    }

    func testQualityPlansKeepAspectNeverUpscaleAndObeyTheReceiver() {
        let screen = PixelSize(width: 2560, height: 1440)
        XCTAssertEqual(MirrorQuality.sharp.plan(source: screen).size, PixelSize(width: 1920, height: 1080))
        XCTAssertEqual(MirrorQuality.balanced.plan(source: screen).size, PixelSize(width: 1280, height: 720))
        XCTAssertEqual(MirrorQuality.smooth.plan(source: screen).fps, 60)
        // A small odd-sized window is not scaled up, and its sides become even.
        XCTAssertEqual(MirrorQuality.sharp.plan(source: PixelSize(width: 641, height: 481)).size, PixelSize(width: 640, height: 480))
        // A receiver of at most 1280x720 at 30 fps, 2 Mb/s.
        let limits = VideoLimits(maxSize: PixelSize(width: 1280, height: 720), maxFrameRate: 30, minBitRate: 500_000, maxBitRate: 2_000_000)
        let p = MirrorQuality.smooth.plan(source: screen, limits: limits)
        XCTAssertEqual(p, VideoPlan(size: PixelSize(width: 1280, height: 720), fps: 30, bitRate: 2_000_000, minBitRate: 500_000))
        // A pixel rate that only allows 10 frames a second of 1280x720.
        XCTAssertEqual(MirrorQuality.balanced.plan(source: screen, limits: VideoLimits(maxPixelsPerSecond: 1280 * 720 * 10)).fps, 10)
    }

    func testVideoArgumentsCaptureTheSourceAndEncodeForRealTime() {
        let plan = VideoPlan(size: PixelSize(width: 1280, height: 720), fps: 30, bitRate: 3_000_000)
        let screen = EncoderArguments.video(source: .x11Screen(display: ":99"), plan: plan)
        XCTAssertEqual(screen[screen.firstIndex(of: "-i")! + 1], ":99")
        for pair in [["-deadline", "realtime"], ["-lag-in-frames", "0"], ["-error-resilient", "1"], ["-f", "ivf"], ["-b:v", "3000000"]] {
            XCTAssertNotNil(screen.indices.first { screen[$0] == pair[0] && screen[$0 + 1] == pair[1] }, "\(pair)")
        }
        XCTAssertTrue(screen.contains("scale=1280:720:flags=bilinear,format=yuv420p"))
        let window = EncoderArguments.video(source: .x11Window(display: ":0", id: 0x3a0000f), plan: plan)
        XCTAssertEqual(window[window.firstIndex(of: "-window_id")! + 1], "\(0x3a0000f)")
        XCTAssertEqual(CaptureSource.windowID("0x3A0000F"), 0x3a0000f)
        XCTAssertEqual(CaptureSource.windowID("123"), 123)
        XCTAssertNil(CaptureSource.windowID("window"))
    }

    func testXwininfoReport() {
        let text = "xwininfo: Window id: 0x4a0 (the root window)\n  Absolute upper-left X:  0\n  Width: 1280\n  Height: 800\n  Depth: 24\n"
        XCTAssertEqual(CaptureSource.parseXwininfo(text), PixelSize(width: 1280, height: 800))
        XCTAssertNil(CaptureSource.parseXwininfo("xwininfo: error: unable to open display"))
    }

    func testVP8KeyFrameFlag() {
        XCTAssertTrue(EncodedVideoFrame.isVP8KeyFrame([0x50, 0x42]))
        XCTAssertFalse(EncodedVideoFrame.isVP8KeyFrame([0x51]))
        XCTAssertFalse(EncodedVideoFrame.isVP8KeyFrame([]))
    }
}
