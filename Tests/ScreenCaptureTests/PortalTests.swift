// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CGio
import XCTest

@testable import ScreenCapture

/// The portal's answers as GVariant text (how `gdbus monitor` prints them), read by what reads
/// the real ones; the whole exchange runs against a real portal in run-mirror-wayland.sh.
final class PortalTests: XCTestCase {
    private func parse(_ text: String) throws -> OpaquePointer {
        var error: UnsafeMutablePointer<GError>?
        guard let v = g_variant_parse(nil, text, nil, nil, &error) else {
            defer { g_error_free(error) }
            throw XCTSkip("GVariant text did not parse: \(String(cString: error!.pointee.message))")
        }
        return g_variant_ref_sink(v)
    }

    func testStartResultsGiveTheNodeSizeAndKind() throws {
        let monitor = try parse("{'streams': <[(uint32 37, {'id': <'0'>, 'source_type': <uint32 1>, 'size': <(1280, 720)>})]>}")
        defer { g_variant_unref(monitor) }
        let p = try ScreenCastPortal.firstStream(of: monitor, session: "/s")
        XCTAssertEqual(p.nodeID, 37)
        XCTAssertEqual(p.size, PixelSize(width: 1280, height: 720))
        XCTAssertFalse(p.isWindow)
        XCTAssertEqual(CaptureSource.portal(p).description, "the screen chosen in the desktop's dialog")

        let window = try parse("{'streams': <[(uint32 51, {'source_type': <uint32 2>, 'size': <(800, 600)>}), (uint32 52, @a{sv} {})]>}")
        defer { g_variant_unref(window) }
        let w = try ScreenCastPortal.firstStream(of: window, session: "/s")
        XCTAssertEqual(w.nodeID, 51)
        XCTAssertTrue(w.isWindow)
    }

    func testOddStartResultsAreRefusedOrDefaulted() throws {
        for text in ["@a{sv} {}", "{'streams': <@a(ua{sv}) []>}", "{'streams': <'nonsense'>}", "{'streams': <[('x', @a{sv} {})]>}"] {
            let v = try parse(text)
            defer { g_variant_unref(v) }
            XCTAssertThrowsError(try ScreenCastPortal.firstStream(of: v, session: "/s"), text) { error in
                guard case .portalFailed = error as? ScreenCaptureError else { return XCTFail("\(text): \(error)") }
            }
        }
        // No size, or a nonsensical one: a full-HD guess that PipeWire scales to.
        let v = try parse("{'streams': <[(uint32 9, {'size': <(-5, 0)>})]>}")
        defer { g_variant_unref(v) }
        XCTAssertEqual(try ScreenCastPortal.firstStream(of: v, session: "/s").size, PixelSize(width: 1920, height: 1080))
    }

    func testWhenThePortalIsPreferred() {
        XCTAssertTrue(CaptureSource.prefersPortal(environment: ["XDG_SESSION_TYPE": "wayland", "DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"]))
        XCTAssertTrue(CaptureSource.prefersPortal(environment: ["WAYLAND_DISPLAY": "wayland-0"]))
        XCTAssertFalse(CaptureSource.prefersPortal(environment: ["XDG_SESSION_TYPE": "x11", "DISPLAY": ":0"]))
        XCTAssertFalse(CaptureSource.prefersPortal(environment: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"]))
        XCTAssertFalse(CaptureSource.prefersPortal(environment: [:]))
    }

    func testThePipeWireFeedAndFFmpegMeetOnAPipe() throws {
        let plan = VideoPlan(size: PixelSize(width: 1280, height: 720), fps: 30, bitRate: 3_000_000, minBitRate: 500_000)
        let gst = PipeWireFeed.arguments(node: 37, plan: plan)
        XCTAssertEqual(Array(gst.prefix(4)), ["-q", "pipewiresrc", "fd=0", "path=37"])
        XCTAssertTrue(gst.contains("video/x-raw,format=I420,width=1280,height=720,framerate=30/1,pixel-aspect-ratio=1/1"))
        XCTAssertEqual(Array(gst.suffix(3)), ["fdsink", "fd=1", "sync=false"])
        let results = try parse("{'streams': <[(uint32 37, {'size': <(1280, 720)>})]>}")
        defer { g_variant_unref(results) }
        let source = CaptureSource.portal(try ScreenCastPortal.firstStream(of: results, session: "/s"))
        XCTAssertEqual(EncoderArguments.captureInput(source: source, fps: 30), ["-f", "yuv4mpegpipe", "-i", "pipe:0"])
        XCTAssertEqual(try source.currentSize(), PixelSize(width: 1280, height: 720))
        XCTAssertNil(source.display)
    }
}
