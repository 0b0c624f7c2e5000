// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// `castctl mirror`'s command line and `castctl receiver --mirror-output`.
import ArgumentParser
import XCTest

@testable import CastCtlCommands

final class MirrorArgumentsTests: XCTestCase {
    let device = ["--device", "127.0.0.1:8009"]

    func testMirrorOptions() throws {
        let m = try XCTUnwrap(
            CastCtl.parseForExecution(
                ["mirror"] + device + ["--window", "0x3a0000f", "--quality", "sharp", "--duration", "5", "--display", ":3", "--codec", "h264"])
                as? MirrorCommand)
        XCTAssertEqual(m.codec, "h264")
        XCTAssertEqual(m.window, "0x3a0000f")
        XCTAssertEqual(m.quality, "sharp")
        XCTAssertEqual(m.duration, 5)
        XCTAssertEqual(m.display, ":3")
        XCTAssertEqual(m.targetDelay, 400)
        let plain = try XCTUnwrap(CastCtl.parseForExecution(["mirror"] + device) as? MirrorCommand)
        XCTAssertEqual(plain.quality, "balanced")
        XCTAssertEqual(plain.codec, "auto")
        XCTAssertNil(plain.window)
        XCTAssertFalse(plain.portal)
        XCTAssertTrue(try XCTUnwrap(CastCtl.parseForExecution(["mirror"] + device + ["--portal"]) as? MirrorCommand).portal)
    }

    func testBadMirrorUsageExitsWithTwo() {
        for (args, text) in [
            (["--window", "window"], "--window"), (["--quality", "ultra"], "sharp, balanced or smooth"), (["--duration", "0"], "--duration"),
            (["--target-delay", "5"], "--target-delay"), (["--media-port", "8012"], "goes with --http"),
            (["--http", "--media-port", "70000"], "--media-port"), (["--audio-only", "--http"], "--audio-only"),
            (["--audio-only", "--window", "0x3a0000f"], "--audio-only"), (["--audio-source", ""], "--audio-source"),
            (["--portal", "--window", "0x1"], "--portal"), (["--portal", "--display", ":1"], "--portal"),
            (["--codec", "vp9"], "vp8, h264 or auto"), (["--http", "--codec", "vp8"], "--http always sends H.264"),
        ] {
            XCTAssertThrowsError(try CastCtl.parseForExecution(["mirror"] + device + args)) { error in
                XCTAssertEqual(CastCtl.exitStatus(for: error), 2, "\(args)")
                XCTAssertTrue(CastCtl.fullMessage(for: error).contains(text), CastCtl.fullMessage(for: error))
            }
        }
    }

    func testTheHTTPPathsOptions() throws {
        let m = try XCTUnwrap(
            CastCtl.parseForExecution(["mirror"] + device + ["--http", "--audio", "--media-port", "8012", "--quality", "smooth"]) as? MirrorCommand)
        XCTAssertTrue(m.http)
        XCTAssertTrue(m.audio)
        XCTAssertEqual(m.mediaPort, 8012)
        XCTAssertEqual(m.quality, "smooth")
        let plain = try XCTUnwrap(CastCtl.parseForExecution(["mirror"] + device) as? MirrorCommand)
        XCTAssertFalse(plain.http, "Cast Streaming unless --http")
    }

    func testTheSoundsOptions() throws {
        let plain = try XCTUnwrap(CastCtl.parseForExecution(["mirror"] + device) as? MirrorCommand)
        XCTAssertFalse(plain.audio, "no sound unless asked for")
        XCTAssertFalse(plain.audioOnly)
        XCTAssertEqual(plain.audioSource, "@DEFAULT_MONITOR@")
        let with = try XCTUnwrap(CastCtl.parseForExecution(["mirror"] + device + ["--audio", "--audio-source", "alsa_output.pci.monitor"]) as? MirrorCommand)
        XCTAssertTrue(with.audio)
        XCTAssertEqual(with.audioSource, "alsa_output.pci.monitor")
        XCTAssertFalse(try XCTUnwrap(CastCtl.parseForExecution(["mirror"] + device + ["--no-audio"]) as? MirrorCommand).audio)
        XCTAssertTrue(try XCTUnwrap(CastCtl.parseForExecution(["mirror"] + device + ["--audio-only", "--duration", "3"]) as? MirrorCommand).audioOnly)
    }

    func testReceiverMirrorOutput() throws {
        let r = try XCTUnwrap(CastCtl.parseForExecution(["receiver", "--port", "0", "--mirror-output", "/tmp/x"]) as? ReceiverCommand)
        XCTAssertEqual(r.mirrorOutput, "/tmp/x")
        XCTAssertNil(r.mirrorCodecs)
        let mute = try XCTUnwrap(
            CastCtl.parseForExecution(["receiver", "--port", "0", "--mirror-output", "/tmp/x", "--mirror-codecs", "vp8"]) as? ReceiverCommand)
        XCTAssertEqual(mute.mirrorCodecs, "vp8")
    }
}
