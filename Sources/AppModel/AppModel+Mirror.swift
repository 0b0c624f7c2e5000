// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastDiscovery
import CastStreaming
import Foundation
import Mirroring
import ScreenCapture

// Screen mirroring from the window (issue 33, docs/mirroring.md): Cast Screen… (the dialog:
// which device, sound on or off, quality) and Cast Desktop Audio start Mirroring's
// `ScreenMirror.run` on a link of its own to the chosen device, not on the session the window
// follows: the window goes on controlling that device or another one while mirroring runs.
// `mirroring` is what the banner, MPRIS and the quit question read; cancelling its task stops
// it (the app is stopped on the device), and however it ends the toast says so in one sentence
// (`MirrorEnding`'s, passed through as it is).
//
//   Cast Screen… ─▶ mirrorPrompt(device) ─▶ dialog ─▶ mirror-screen(i) ─┐
//   Cast Desktop Audio ──────────────────────────────────────────────────┴▶ startMirroring
//        ─▶ mirroring (starting, then streaming) ─▶ Stop / an ending ─▶ nil + toast
extension AppModel {
    /// The one quality choice (Sharp / Balanced / Smooth), as ScreenCapture plans it.
    public typealias ScreenQuality = ScreenCapture.MirrorQuality

    /// Mirroring under way: to which device, what, and whether frames flow yet.
    public struct MirrorState: Equatable, Sendable {
        public var deviceID: String
        public var deviceName: String
        /// A picture (the screen), or the desktop's sound alone.
        public var isScreen: Bool
        /// What is sent; nil while the desktop's screen-sharing dialog (Wayland) is open.
        public var media: MirrorMedia?
        public var quality: ScreenQuality
        /// What is sent since the device answered (size, frame rate, bit rate); nil while the
        /// mirroring app starts.
        public var plan: VideoPlan?
        /// Stop was asked for; the app is being stopped on the device.
        public var isStopping = false

        public var isStreaming: Bool { plan != nil }

        /// The banner's sentence (a device known by its address kept left to right).
        public var text: String {
            let name = Localization.isolatedAddress(deviceName)
            return isScreen ? tr("Casting your screen to {0}", name) : tr("Casting your desktop’s sound to {0}", name)
        }
        /// What MPRIS calls it (the title; the device is the artist).
        public var title: String { isScreen ? tr("Screen") : tr("Desktop audio") }
    }

    /// A quality's name in the Cast Screen dialog (its line of explanation is in mirror-dialog.ui).
    public static func title(of quality: ScreenQuality) -> String {
        switch quality {
        case .sharp: tr("Sharp")
        case .balanced: tr("Balanced")
        case .smooth: tr("Smooth")
        }
    }

    /// The devices that can show the screen: every listed device but speakers and speaker groups.
    public var screenTargets: [DeviceInfo] { devices.filter { !isAudioOnly($0) } }

    /// A device without a screen: a speaker group, a speaker that advertised audio out and no
    /// video out, or the connected device when it runs the audio-only receiver.
    public func isAudioOnly(_ device: DeviceInfo) -> Bool {
        if device.isGroup || knownGroups[device.id] != nil { return true }
        if device.id == sessionDeviceID, isAudioOnlyDevice { return true }
        let caps = device.device.capabilities
        return device.device.source == .discovered && caps.contains(.audioOut) && !caps.contains(.videoOut)
    }

    /// The mirroring app this window started on the device it follows: not another sender's
    /// app (the banner has its Stop).
    func isOwnMirror(_ appID: String) -> Bool {
        guard let mirroring, mirroring.deviceID == sessionDeviceID else { return false }
        return [CastStreamingIDs.mirroringApp, CastStreamingIDs.audioMirroringApp].contains(appID.uppercased())
    }

    /// Whether mirroring is under way (or starting).
    public var isMirroring: Bool { mirroring != nil }

    /// Remembers the dialog's choices for the next time (GSettings in the app).
    public func setMirrorChoices(quality: ScreenQuality, sound: Bool) {
        mirrorQuality = quality
        mirrorSound = sound
        mirrorPreferences.mirrorQuality = quality.rawValue
        mirrorPreferences.mirrorSound = sound
    }

    /// Where the screen comes from: the X11 display, or nil for the desktop's screen-sharing
    /// portal (a Wayland session, where Xwayland sees only X11 applications), or the sentence
    /// that says why there is none. `environment`: the process's, unless a test gives another.
    static func screenSource(_ environment: [String: String]) -> Result<CaptureSource?, MirrorRefusal> {
        if CaptureSource.prefersPortal(environment: environment) { return .success(nil) }
        guard let display = environment["DISPLAY"], !display.isEmpty else {
            return .failure(MirrorRefusal(tr("There is no screen to cast: CastDeck is not running in a desktop session.")))
        }
        return .success(.x11Screen(display: display))
    }

    /// What the desktop's screen-sharing dialog decided, as the toast says it.
    static func portalSentence(_ error: ScreenCaptureError) -> String {
        if case .portalRefused = error { return tr("Screen sharing was refused in the desktop’s dialog, so nothing was cast.") }
        return error.description
    }

    /// Why mirroring did not start, as one sentence.
    struct MirrorRefusal: Error {
        let sentence: String
        init(_ sentence: String) { self.sentence = sentence }
    }

    /// Starts mirroring to `device` (the command table's mirror-screen and cast-desktop-audio):
    /// picture with the remembered sound choice, or the desktop's sound alone.
    func startMirroring(to device: DeviceInfo, screen: Bool) {
        guard mirroring == nil else { return }
        var media: MirrorMedia? = .sound
        if screen {
            switch Self.screenSource(mirrorEnvironment) {
            case .failure(let refusal): return post(refusal.sentence)
            case .success(let source): media = source.map { .screen($0, sound: mirrorSound) }
            }
        }
        let (quality, sound) = (mirrorQuality, mirrorSound)
        mirroring = MirrorState(deviceID: device.id, deviceName: device.friendlyName, isScreen: screen, media: media, quality: quality)
        mirrorSerial += 1
        let serial = mirrorSerial
        mirrorTask = Task { [weak self] in
            guard let self else { return }
            // On Wayland the desktop's own dialog chooses the screen or window first.
            var portal: ScreenCastPortal?
            if media == nil {
                do {
                    let chosen = try await ScreenCastPortal.choose()
                    portal = chosen
                    media = .screen(.portal(chosen), sound: sound)
                    if self.mirrorSerial == serial { self.mirroring?.media = media }
                } catch {
                    guard self.mirrorSerial == serial else { return }
                    let said = (error as? ScreenCaptureError).map(Self.portalSentence) ?? "\(error)"
                    return self.mirrorEnded(Task.isCancelled ? .stopped(resent: 0) : .failed(said), device: device.friendlyName, screen: screen)
                }
            }
            defer { if let portal { Task.detached { portal.close() } } }
            guard let media, !Task.isCancelled else {
                if self.mirrorSerial == serial { self.mirrorEnded(.stopped(resent: 0), device: device.friendlyName, screen: screen) }
                return
            }
            let request = MirrorRequest(media: media, quality: quality)
            let ending = await self.mirror(device, request: request) { [weak self] plan in
                Task { @MainActor in
                    guard let self, self.mirrorSerial == serial else { return }
                    self.mirroring?.plan = plan
                }
            }
            guard self.mirrorSerial == serial else { return }
            self.mirrorEnded(ending, device: device.friendlyName, screen: screen)
        }
    }

    /// Stops mirroring (Stop in the banner, MPRIS' Stop, Quit) and waits until the app is
    /// stopped on the device.
    public func stopMirroring() async {
        guard let task = mirrorTask else { return }
        mirroring?.isStopping = true
        task.cancel()
        await task.value
    }

    /// How it went, in a toast; the banner goes.
    private func mirrorEnded(_ ending: MirrorEnding, device: String, screen: Bool) {
        mirroring = nil
        mirrorTask = nil
        switch ending {
        case .stopped:
            post(screen ? tr("Stopped casting your screen to {0}.", device) : tr("Stopped casting your desktop’s sound to {0}.", device))
        case .failed(let sentence):
            post(sentence)
        }
    }

    /// A link of its own to the device, the capture checked before the device is asked, then
    /// `ScreenMirror.run` until cancelled or ended; the link is closed after.
    private func mirror(_ device: DeviceInfo, request: MirrorRequest, streaming: @escaping @Sendable (VideoPlan) -> Void) async -> MirrorEnding {
        if let source = request.media.source {
            // xwininfo, off the main thread: a missing display is said before the device is asked.
            let probe = await Task.detached { source.probeSize() }.value
            if case .failure(let e) = probe { return .failed(e.description) }
        }
        var configuration = clientConfiguration
        if device.device.source == .discovered {
            configuration.deviceAuthentication.advertisedCapabilities = Int(device.device.capabilities.rawValue)
        }
        // Mirroring is live: a dropped link ends it instead of rejoining minutes later.
        configuration.reconnect = .disabled
        configuration.sessionStore = nil
        let session = CastSession(device: device.address, deviceID: device.id, configuration: configuration)
        do {
            try await session.connect()
        } catch {
            await session.disconnect()
            return .failed(Self.explain(error, device: device.friendlyName))
        }
        if Task.isCancelled {
            await session.disconnect()
            return .stopped(resent: 0)
        }
        let ending = await ScreenMirror.run(session: session, request: request) { progress in
            if case .streaming(let plan) = progress { streaming(plan) }
        }
        await Task { await session.disconnect() }.value
        return ending
    }
}
