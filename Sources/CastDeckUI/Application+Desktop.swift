// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// What CastDeck does on the desktop beyond its window (issue 14):
///
/// - MPRIS: `org.mpris.MediaPlayer2.CastDeck` on GApplication's session-bus connection, on the
///   bus while the application runs. castdeck builds it (`Services.startMediaControls`); the
///   application hands it the connection and what Raise and Quit do.
/// - Casting in the background: closing the window while media is cast hides it and holds the
///   application; a second launch, Raise or the Shell's media card shows it again. Once the
///   device ends the session (or another sender takes over) with no window shown, CastDeck
///   leaves the bus and quits. Ctrl+Q while casting asks whether to stop the media, or (media
///   served from this computer) whether to keep running in the background.
/// - The mini player: app.mini-player opens it and hides the main window; app.full-controller
///   (its Return button, Escape) goes back. Closing the main window while casting opens it too
///   (GSettings "mini-player-on-close", on by default; PreferencesWindow+MiniPlayer.swift). Whether it was open is kept per device in GSettings
///   ("mini-player-device"), so the next session on that device starts the same way.
@MainActor
final class DesktopState {
    /// Takes the media controls (MPRIS, built by castdeck) off the bus.
    var stopMediaControls: (@MainActor () -> Void)?
    /// The last mini player opened; once closed or dismissed its window is gone, and the next
    /// opening makes a new one.
    var miniPlayer: MiniPlayer?
    /// True while a g_application_hold keeps CastDeck running with no window.
    var held = false
    var token: ObservationToken?
    var quitCheck: UInt32 = 0
    /// The device whose remembered mini player was already restored in this connection.
    var restoredFor: String?
    /// Whether this run has said that CastDeck keeps casting with its window closed.
    var toldBackground = false
}

extension CastDeckApplication {
    static let miniPlayerKey = "mini-player-device"

    func installDesktopActions() {
        app.add(SimpleAction(name: "mini-player") { [unowned self] _ in self.openMiniPlayer() })
        app.add(SimpleAction(name: "full-controller") { [unowned self] _ in self.showFullController() })
    }

    /// Media is cast on a connected device.
    var isCasting: Bool { model.map { $0.isConnected && $0.hasMedia } ?? false }

    /// MPRIS on the bus, the window's close button, and following the session.
    func startDesktop(_ model: AppModel) {
        if let raw = app.dbusConnection, let start = services.startMediaControls {
            desktop.stopMediaControls = start(
                model, DBusConnection(borrowing: raw),
                MediaControlHooks(
                    raise: { [unowned self] in self.showFullController() },
                    quit: { [unowned self] in self.quitNow() }))
        }
        window?.closeRequested = { [unowned self] in self.mainWindowCloseRequested() }
        desktop.token = observe { [unowned self] in self.followCasting() }
    }

    /// Closing the window while casting keeps CastDeck (and MPRIS) running: in the mini player
    /// (unless Preferences turned that off), else in the background; otherwise it quits.
    func mainWindowCloseRequested() -> Bool {
        if keepMirroringInBackground() { return true }  // Application+Mirror.swift
        guard isCasting else { return false }
        if MiniPlayerOnClose.isOn(settings) {
            // Not remembered for the next session: the person closed a window, not chose a player.
            openMiniPlayer(remember: false)
            if desktop.miniPlayer?.isShown == true { return true }
        }
        window?.window.asWindow.hide()
        enterBackground()
        tellRunningInBackground()
        return true
    }

    /// The first time in a run that the window closes while casting, a notification says that
    /// CastDeck goes on (a window that vanished would otherwise look like a quit app that still
    /// plays somehow). Once is enough: the media controls show it after that.
    func tellRunningInBackground() {
        guard !desktop.toldBackground else { return }
        desktop.toldBackground = true
        let device = isCasting ? model?.connectedDevice?.friendlyName : model?.mirroring?.deviceName
        let name = device.map(isolateLTRIfAddress) ?? tr("the device")
        app.notify(
            id: "background", title: tr("CastDeck is still casting"),
            body: tr("It keeps playing to {0}. Use the media controls, or open CastDeck again, to stop.", name))
    }

    func enterBackground() {
        guard !desktop.held else { return }
        app.hold()
        desktop.held = true
    }

    /// Called once a window is shown again.
    func leaveBackground() {
        guard desktop.held else { return }
        desktop.held = false
        app.release()
    }

    /// Restores the remembered mini player, and quits once nothing is cast while no window shows.
    func followCasting() {
        guard let model else { return }
        let casting = isCasting
        let device = model.connectedDevice?.id
        if device == nil { desktop.restoredFor = nil }
        if casting, let device, desktop.restoredFor != device {
            desktop.restoredFor = device
            if settings?.string(Self.miniPlayerKey) == device, desktop.miniPlayer?.isShown != true { openMiniPlayer() }
        }
        GLibSource.remove(desktop.quitCheck)
        desktop.quitCheck = 0
        guard !casting, !isMirroring else { return }
        // A moment's grace: between queue items the receiver is briefly idle.
        desktop.quitCheck = GLibSource.timeout(ms: 2000) { [unowned self] in
            self.desktop.quitCheck = 0
            if !self.isCasting && !self.isMirroring && !self.app.hasVisibleWindow && self.desktop.held { self.quitNow() }
            return false
        }
    }

    // MARK: the mini player

    /// `remember`: whether the next session on this device opens in the mini player too (when
    /// the person asked for it; not when it opened because the window closed).
    func openMiniPlayer(remember: Bool = true) {
        guard let model, let window else { return }
        if desktop.miniPlayer?.isShown != true {
            do {
                let mini = try MiniPlayer(app: app, model: model, clock: window.clock)
                mini.onClosed = { [unowned self] in self.miniPlayerClosed() }
                desktop.miniPlayer = mini
            } catch {
                model.post(tr("The mini player could not open."), detail: String(describing: error))
                return
            }
        }
        desktop.miniPlayer?.present()
        window.saveSize()
        window.window.asWindow.hide()
        // While the mini player is the only window, the application must not quit with it.
        enterBackground()
        if remember, let device = model.connectedDevice?.id { settings?.set(Self.miniPlayerKey, string: device) }
    }

    /// The mini player was closed: casting goes on in the background, or CastDeck quits.
    func miniPlayerClosed() {
        guard !(window.map { $0.window.asWindow.isVisible } ?? false) else { return }
        if isCasting { tellRunningInBackground() } else { quitNow() }
    }

    /// The main window on the expanded controller (Return to full controller, Raise, a second
    /// launch); the mini player closes.
    func showFullController() {
        if let mini = desktop.miniPlayer, mini.isShown { mini.dismiss() }
        if model?.isConnected == true { settings?.set(Self.miniPlayerKey, string: "") }
        guard let window else { return }
        window.present()
        if model?.hasMedia == true { window.showPlayer() }
        leaveBackground()
    }

    // MARK: quitting

    /// Ctrl+Q: while casting, ask whether the media should stop too. What else is offered is
    /// what can really happen (AppModel.quitChoice): media that plays on by itself can be left
    /// playing; media served from this computer plays on only while CastDeck runs, so CastDeck
    /// can go on in the background instead (as closing the window does); the demo receiver
    /// ends with CastDeck, so there is only Stop or Cancel.
    func requestQuit() {
        if isMirroring { return askStopMirroring() }  // Application+Mirror.swift
        guard isCasting, let model else {
            quitNow()
            return
        }
        // A device known by its address keeps "10.0.0.2:8009" in order inside right-to-left text.
        let name = model.connectedDevice.map { isolateLTRIfAddress($0.friendlyName) } ?? tr("the device")
        let parent = desktop.miniPlayer.flatMap { $0.isShown ? $0.window.asWindow : nil } ?? window?.window.asWindow
        let body: String
        let other: (id: String, label: String)
        switch model.quitChoice {
        case .keepPlaying:
            body = tr("CastDeck quits either way. Keep Playing leaves the media playing on the device.")
            other = ("keep", tr("Keep Playing"))
        case .keepRunning:
            body = tr(
                "{0} plays this media from this computer, so it stops when CastDeck quits. Keep Running in the Background closes the window and keeps casting.",
                name)
            other = ("background", tr("Keep Running in the Background"))
        case .stopOnly:
            body = tr("{0} runs inside CastDeck: quitting stops it and the media it plays.", name)
            other = ("cancel", tr("_Cancel"))
        }
        let dialog = MessageDialog(
            parent: parent, heading: tr("Stop casting to {0}?", name), body: body,
            responses: [other, ("stop", tr("Stop Casting"))],
            destructive: "stop", defaultResponse: other.id)
        dialog.onResponse { [unowned self] response in
            switch response {
            case "stop":
                Task {
                    await model.perform(.stopCasting)
                    self.quitNow()
                }
            case "keep":
                self.quitNow()
            case "background":
                self.runInBackground()
            default:
                break
            }
        }
        dialog.present()
    }

    /// Hides every window and keeps casting: what closing the window does while casting.
    func runInBackground() {
        if let mini = desktop.miniPlayer, mini.isShown { mini.dismiss() }
        if let window {
            window.saveSize()
            window.window.asWindow.hide()
        }
        enterBackground()
    }

    /// Leaves the bus name, saves the window size and quits.
    func quitNow() {
        window?.saveSize()
        // Where our media stands, on disk before the process ends.
        model?.saveResumePosition(wait: true)
        desktop.stopMediaControls?()
        desktop.stopMediaControls = nil
        app.quit()
    }
}
