// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastDiscovery
import CastStreaming
import Foundation
import XCTest

@testable import AppModel

/// Screen mirroring from the window, headless (AppModel+Mirror.swift): the simulator runs the
/// mirroring apps and writes what it receives (`frames.jsonl`); the screen is the X display the
/// tests run on (make check runs them under xvfb-run). The window connected to one device goes
/// on controlling it while another one mirrors; Stop, a lost device and a missing display each
/// end with one sentence.
@MainActor
final class MirrorModelTests: XCTestCase {
    var tv: Harness!
    var model: AppModel!
    var output = ""

    override func setUp() async throws {
        output = NSTemporaryDirectory() + "castdeck-mirror-\(UUID().uuidString)"
        tv = try await Harness.start(name: "Living Room TV", mirrorOutput: output)
        model = tv.model()
    }

    override func tearDown() async throws {
        await model.stopMirroring()
        await model.disconnect()
        await tv.stop()
        try? FileManager.default.removeItem(atPath: output)
    }

    private func requireDisplay() throws {
        try XCTSkipIf(
            (ProcessInfo.processInfo.environment["DISPLAY"] ?? "").isEmpty,
            "mirroring the screen needs an X display: run under xvfb-run, as make check does")
    }

    private func index(of device: DeviceInfo) throws -> Int { try XCTUnwrap(model.devices.firstIndex { $0.id == device.id }) }

    private func runningApp(_ h: Harness) async throws -> String? {
        try await h.server.receiverStatus().applications?.first { $0.isIdleScreen != true }?.appId
    }

    /// Frames the simulator received (lines of frames.jsonl).
    private func framesReceived() -> Int {
        guard let text = try? String(contentsOfFile: output + "/frames.jsonl", encoding: .utf8) else { return 0 }
        return text.split(separator: "\n").filter { $0.contains("\"received\"") }.count
    }

    func testTheScreenIsMirroredWithTheDialogsChoicesAndStopEndsIt() async throws {
        try requireDisplay()
        let device = try XCTUnwrap(model.addDevice(address: tv.address, name: "Living Room TV"))
        // The window follows the same device: the mirroring app is ours, not another sender's.
        await model.connect(to: device)
        await model.perform(.castSample)
        try await waitUntil("the sample plays") { self.model.mediaStatus?.playerState == .playing }
        model.setMirrorChoices(quality: .smooth, sound: false)
        XCTAssertEqual(model.mirrorPreferences.mirrorQuality, "smooth")
        XCTAssertFalse(model.mirrorPreferences.mirrorSound)
        let outcome = await model.perform(AppAction(.mirrorScreen, .int(try index(of: device))))
        XCTAssertEqual(outcome, .performed)
        let started = try XCTUnwrap(model.mirroring)
        XCTAssertEqual(started.quality, .smooth)
        XCTAssertEqual(started.media?.hasSound, false)
        XCTAssertEqual(started.text, "Casting your screen to Living Room TV")
        XCTAssertEqual(started.title, "Screen")

        try await waitUntil("streaming") { self.model.mirroring?.isStreaming == true }
        XCTAssertEqual(model.mirroring?.plan?.fps, 60, "Smooth asks for 60 frames a second")
        let app = try await runningApp(tv)
        XCTAssertEqual(app, CastStreamingIDs.mirroringApp)
        try await waitUntil("frames on the device") { self.framesReceived() > 0 }
        try await waitUntil("the window's status lists the mirroring app") {
            self.model.receiverStatus?.applications?.contains { $0.appId == CastStreamingIDs.mirroringApp } == true
        }
        XCTAssertNil(model.otherApp, "the window's own mirroring is not another sender's app")
        XCTAssertNil(model.notice, "nor told as someone else taking the device over")
        XCTAssertFalse(model.isEnabled(.castScreen), "one mirroring at a time")
        let second = await model.perform(AppAction(.castDesktopAudioTo, .int(0)))
        XCTAssertEqual(second, .refused("Casting your screen to Living Room TV first: one screen or sound is cast at a time."))

        let stopping = Task { await self.model.perform(.stopMirroring) }
        await Task.yield()  // the stop runs up to its wait for the device
        XCTAssertEqual(model.mirroring?.isStopping, true, "the banner says Stopping… at once")
        XCTAssertFalse(model.isEnabled(.stopMirroring), "and Stop is off while the device stops the app")
        let stopped = await stopping.value
        XCTAssertEqual(stopped, .performed)
        XCTAssertNil(model.mirroring)
        XCTAssertEqual(model.notice?.text, "Stopped casting your screen to Living Room TV.")
        let after = try await runningApp(tv)
        XCTAssertNotEqual(after, CastStreamingIDs.mirroringApp, "Stop stops the app on the device")
        XCTAssertEqual(model.connection, .connected(deviceID: device.id), "the window's own session stays")
    }

    func testAnotherDeviceIsControlledWhileOneMirrors() async throws {
        try requireDisplay()
        let kitchen = try await Harness.start(name: "Kitchen TV", host: "127.0.0.2")
        defer { Task { await kitchen.stop() } }
        let tvDevice = try XCTUnwrap(model.addDevice(address: tv.address, name: "Living Room TV"))
        let other = try XCTUnwrap(model.addDevice(address: kitchen.address, name: "Kitchen TV"))
        await model.connect(to: other)
        await model.perform(.castSample)
        try await waitUntil("the sample plays in the kitchen") { self.model.mediaStatus?.playerState == .playing }

        // The picture alone: no sound server runs under the unit tests (run-mirror-audio.sh has one).
        model.setMirrorChoices(quality: .balanced, sound: false)
        await model.perform(AppAction(.mirrorScreen, .int(try index(of: tvDevice))))
        try await waitUntil("streaming to the living room") { self.model.mirroring?.isStreaming == true }
        await model.perform(.pause)
        try await waitUntil("paused in the kitchen") { try await kitchen.receiverMedia()?.playerState == .paused }
        XCTAssertEqual(model.mirroring?.deviceID, tvDevice.id, "mirroring goes on")
        XCTAssertEqual(model.connection, .connected(deviceID: other.id))
    }

    func testALostDeviceEndsMirroringWithOneSentence() async throws {
        try requireDisplay()
        let device = try XCTUnwrap(model.addDevice(address: tv.address, name: "Living Room TV"))
        model.setMirrorChoices(quality: .balanced, sound: false)
        await model.perform(AppAction(.mirrorScreen, .int(try index(of: device))))
        try await waitUntil("streaming") { self.model.mirroring?.isStreaming == true }
        await tv.server.stop()
        try await waitUntil("mirroring ended") { self.model.mirroring == nil }
        let sentence = try XCTUnwrap(model.notice?.text)
        XCTAssertFalse(sentence.hasPrefix("Stopped"), "not told as a stop the user asked for: \(sentence)")
        XCTAssertFalse(sentence.contains("\n"))
    }

    func testWithoutADesktopTheScreenIsNotCastAndTheSentenceSaysWhy() async throws {
        // Where the screen comes from: X11, or the portal in a Wayland session (run-mirror-wayland.sh
        // drives the window through a real portal), or nowhere.
        XCTAssertEqual(try AppModel.screenSource(["DISPLAY": ":0"]).get(), .x11Screen(display: ":0"))
        XCTAssertEqual(try AppModel.screenSource(["DISPLAY": ":0", "XDG_SESSION_TYPE": "wayland"]).get(), nil)
        XCTAssertEqual(try AppModel.screenSource(["WAYLAND_DISPLAY": "wayland-0"]).get(), nil)
        XCTAssertEqual(
            AppModel.portalSentence(.portalRefused("no")), "Screen sharing was refused in the desktop’s dialog, so nothing was cast.")
        let device = try XCTUnwrap(model.addDevice(address: tv.address, name: "Living Room TV"))
        model.mirrorEnvironment = [:]
        await model.perform(AppAction(.mirrorScreen, .int(try index(of: device))))
        XCTAssertNil(model.mirroring)
        XCTAssertEqual(
            model.notice?.text,
            "There is no screen to cast: CastDeck is not running in a desktop session.")
        let app = try await runningApp(tv)
        XCTAssertNil(app, "the device was not asked")
        // A display that does not answer: xwininfo's sentence, before the device is asked.
        model.mirrorEnvironment = ["DISPLAY": ":97"]
        await model.perform(AppAction(.mirrorScreen, .int(try index(of: device))))
        try await waitUntil("ended") { self.model.mirroring == nil }
        XCTAssertEqual(model.notice?.text, "No X server answers on display :97: set DISPLAY to a running X session.")
        let still = try await runningApp(tv)
        XCTAssertNil(still)
    }

    func testDesktopAudioAsksForTheSoundAloneAndSaysHowItEnded() async throws {
        let device = try XCTUnwrap(model.addDevice(address: tv.address, name: "Living Room TV"))
        await model.perform(AppAction(.castDesktopAudioTo, .int(try index(of: device))))
        XCTAssertEqual(model.mirroring?.media, .sound)
        XCTAssertEqual(model.mirroring?.text, "Casting your desktop’s sound to Living Room TV")
        XCTAssertEqual(model.mirroring?.title, "Desktop audio")
        var launched = false
        // Streaming (then Stop), or, with no sound server under the unit tests, its one sentence.
        try await waitUntil("the audio mirroring app, streaming or an ending") {
            if try await self.runningApp(self.tv) == CastStreamingIDs.audioMirroringApp { launched = true }
            return self.model.mirroring == nil || self.model.mirroring?.isStreaming == true
        }
        XCTAssertTrue(launched || model.mirroring == nil, "the sound alone launches the audio mirroring app")
        if model.mirroring != nil { await model.perform(.stopMirroring) }
        let ended = try XCTUnwrap(model.notice?.text)
        XCTAssertFalse(ended.isEmpty)
        XCTAssertNil(model.mirroring)
    }

    func testSpeakersAndGroupsGetOnlyDesktopAudio() async throws {
        let speaker = DeviceInfo(
            CastDevice(
                id: "speaker-1", friendlyName: "Kitchen Speaker", model: "Google Nest Mini", host: "10.0.0.9", port: 8009,
                capabilities: [.audioOut], source: .discovered))
        let screen = DeviceInfo(
            CastDevice(
                id: "tv-1", friendlyName: "Den TV", model: "Chromecast", host: "10.0.0.8", port: 8009,
                capabilities: [.audioOut, .videoOut], source: .discovered))
        XCTAssertTrue(model.isAudioOnly(speaker))
        XCTAssertFalse(model.isAudioOnly(screen))
        let added = try XCTUnwrap(model.addDevice(address: tv.address, name: "Living Room TV"))
        XCTAssertFalse(model.isAudioOnly(added), "a device added by address is offered the screen")
        XCTAssertEqual(model.screenTargets.map(\.id), [added.id])
        // The row's Cast Screen… opens the dialog only for a device with a screen.
        var asked: [String?] = []
        model.mirrorPrompt = { asked.append($0) }
        await model.perform(AppAction(.castScreenTo, .int(try index(of: added))))
        XCTAssertEqual(asked, [added.id])
        await model.perform(.castScreen)
        XCTAssertEqual(asked, [added.id, nil], "not connected: the dialog chooses")
    }
}
