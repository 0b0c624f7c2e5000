// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// The main window (main-window.ui): the device list and the expanded controller as two pages
/// of a stack, the mini controller at the bottom. Renders `AppModel`; every command goes
/// through `ModelActions` (the AppAction table as "win." actions).
@MainActor
public final class MainWindow {
    static let resource = CastDeckApplication.resourcePath + "/ui/main-window.ui"
    static let shortcutsResource = CastDeckApplication.resourcePath + "/ui/shortcuts.ui"

    let window: ApplicationWindow
    let model: AppModel
    let settings: Settings?
    let actions: ModelActions
    let toasts: ToastOverlay
    let pages: Stack
    let back: Button
    let castFileButton: Button
    var narrow = false
    let title: WindowTitle
    let miniRevealer: Revealer
    let reconnectRevealer: Revealer
    let reconnectLabel: Label
    let reconnectSpinner: Spinner
    /// Stops the banner's spinner a while into a reconnect (see `renderReconnecting`).
    var spinnerTimeout: UInt32 = 0
    let devices: DeviceList
    /// Casting the screen or the desktop's sound: the banner under the header (MainWindow+Mirror.swift).
    let mirrorBanner: MirrorBanner
    /// The mini and the expanded controller, built by `buildPlayer()` once the first frame is
    /// up (or when the player page is first needed): the first frame shows the device list and
    /// does not wait for the player's widgets (docs/performance.md, "Start-up layout"). The
    /// mini controller's bar is hidden until something is cast.
    private(set) var mini: MiniController?
    private(set) var expanded: ExpandedController?
    let playerScroll: ScrolledWindow
    var lastNotice = 0
    var tokens: [ObservationToken] = []
    /// The position's tick, shared with the mini player (PlaybackClock.swift).
    let clock: PlaybackClock
    var showPlayerOnMedia = true
    /// Asked when the user closes the window: true keeps it (hidden, casting in the background).
    var closeRequested: (() -> Bool)?

    /// Builds the window from its .ui files; throws when one is missing or invalid.
    init(app: Application, model: AppModel, settings: Settings?) throws {
        self.model = model
        self.settings = settings
        let ui = try Builder(resource: Self.resource)
        window = ui.get("window")
        toasts = ui.get("toasts")
        pages = ui.get("pages")
        back = ui.get("back")
        castFileButton = ui.get("cast-file")
        title = ui.get("title")
        miniRevealer = ui.get("mini-revealer")
        reconnectRevealer = ui.get("reconnect-revealer")
        reconnectLabel = ui.get("reconnect-label")
        reconnectSpinner = ui.get("reconnect-spinner")
        actions = ModelActions(model: model)
        clock = PlaybackClock(model: model)
        devices = try DeviceList(model: model, settings: settings)
        mirrorBanner = try MirrorBanner(model: model)
        playerScroll = ui.get("player-scroll")

        window.setApplication(app)
        let width = settings?.int("window-width") ?? 720
        let height = settings?.int("window-height") ?? 760
        window.asWindow.defaultSize = (max(360, width), max(400, height))
        ui.get("devices-scroll", as: ScrolledWindow.self).setChild(devices.root)
        ui.get("menu", as: MenuButton.self).setMenuOnFirstOpen(from: ui, id: "app-menu")
        // A bar that slid away is hidden too, so assistive technology does not offer its
        // buttons next to the expanded controller's.
        miniRevealer.onChildRevealedChanged { [unowned self] in
            if !self.miniRevealer.revealsChild && !self.miniRevealer.isChildRevealed { self.miniRevealer.isVisible = false }
        }

        // Likewise the page the stack slid away from: GTK keeps it in the accessibility tree.
        pages.onTransitionRunningChanged { [unowned self] in self.hideOtherPage() }
        devices.root.isVisible = true

        actions.install(on: window.asWindow)
        actions.installAccelerators(app)
        window.asWindow.onKeyCapture { [unowned self] key in self.handleKey(key) }
        window.asWindow.onWidthChanged { [unowned self] width in
            self.expanded?.layout(width: width, height: self.window.asWindow.defaultSize.height)
            self.mini?.layout(width: width)
            // On a phone-width window the header bar has room for Back or Cast a File, not
            // both: Cast a File stays in the main menu and on Ctrl+O.
            self.narrow = width < 440
            self.castFileButton.isVisible = !(self.narrow && self.isShowingPlayer)
        }
        // Artwork is chosen and scaled for the screen's scale factor, and again when the window
        // moves to a screen with another one.
        model.displayScale = window.asWindow.scaleFactor
        window.asWindow.on("notify::scale-factor") { [unowned self] in self.model.displayScale = self.window.asWindow.scaleFactor }
        window.asWindow.on("notify::default-height") { [unowned self] in
            let size = self.window.asWindow.defaultSize
            self.expanded?.layout(width: size.width, height: size.height)
        }
        model.linkPrompt = { [unowned self] in
            CastLinkDialog.present(parent: self.window.asWindow) { [unowned self] link in
                Task { await self.model.castLink(link) }
            }
        }
        // "Cast a file" (AppAction.chooseFiles): the chooser is the window's; the files go to the model.
        model.filePicker = { [unowned self] in self.chooseFiles() }
        // Move to… (AppAction.moveTo): the dialog of devices to move playback to.
        model.movePrompt = { [unowned self] in MoveDialog.present(parent: self.window.asWindow, model: self.model) }
        installLinkOpener()  // Learn More (MainWindow+Links.swift)
        installMirroring(root: ui.get("root"), header: ui.get("header", as: Widget.self))  // MainWindow+Mirror.swift
        // Casting what stopped part-way asks first; Preferences (AppAction.showPreferences).
        model.resumePrompt = { [unowned self] question in await ResumeDialog.ask(parent: self.window.asWindow, question) }
        let preferences = PreferencesWindow(model: model, settings: settings)
        model.preferencesPrompt = { [unowned self] in preferences.present(parent: self.window.asWindow) }
        window.asWindow.onFilesDropped { [unowned self] files in self.cast(files) }
        back.onClicked { [unowned self] in self.showDevices() }
        devices.parent = window.asWindow
        devices.showDetails = { [unowned self] notice in self.showDetails(notice) }
        window.asWindow.onCloseRequest { [unowned self] in
            self.saveSize()
            return self.closeRequested?() ?? false
        }

        tokens.append(observe { [unowned self] in self.devices.render() })
        tokens.append(observe { [unowned self] in self.renderPages() })
        tokens.append(observe { [unowned self] in self.renderNotice() })
        tokens.append(observe { [unowned self] in self.renderReconnecting() })
        clock.add(
            self, isShown: { [unowned self] in self.window.asWindow.isVisible },
            tick: { [unowned self] in
                self.actions.refresh()
                self.mini?.renderProgress()
                self.expanded?.renderProgress()
            })
        tokens.append(
            observe { [unowned self] in
                self.actions.refresh()
                self.clock.update()
            })
    }

    /// Builds the mini and expanded controllers if they are not built yet; false (and the
    /// error printed) when a window definition cannot be loaded.
    @discardableResult
    func buildPlayer() -> Bool {
        if expanded != nil { return true }
        let bar: MiniController
        let player: ExpandedController
        do {
            bar = try MiniController(model: model)
            player = try ExpandedController(model: model, actions: actions)
        } catch {
            printError("castdeck: cannot load the window definition: \(error)")
            return false
        }
        mini = bar
        bar.onOpen = { [unowned self] in self.showPlayer() }
        bar.layout(width: window.asWindow.defaultSize.width)
        miniRevealer.setChild(bar.root)
        tokens.append(observe { [unowned bar] in bar.render() })
        expanded = player
        player.parent = window.asWindow
        player.root.isVisible = isShowingPlayer
        playerScroll.setChild(player.root)
        let size = window.asWindow.defaultSize
        player.layout(width: size.width, height: size.height)
        // Its own observer: it renders what it reads from the model from now on.
        tokens.append(observe { [unowned player] in player.render() })
        return true
    }

    func present() {
        window.asWindow.present()
        clock.update()
    }

    // MARK: files from this computer

    /// The types the file dialog offers first: what a Cast device plays directly (LocalMedia
    /// says why when a chosen file is something else).
    static let mediaTypes = [
        "video/mp4", "video/webm", "video/quicktime", "video/x-m4v", "audio/mpeg", "audio/mp4", "audio/aac",
        "audio/flac", "audio/ogg", "audio/opus", "audio/wav", "audio/x-wav", "audio/webm",
        "image/jpeg", "image/png", "image/gif", "image/webp", "image/bmp",
    ]

    func chooseFiles() {
        FileDialog.openFiles(
            parent: window.asWindow, title: tr("Cast a File"), filterName: tr("Media files"),
            mimeTypes: Self.mediaTypes, allFilesName: tr("All files"),
            acceptLabel: tr("_Cast"), cancelLabel: tr("_Cancel")
        ) { [weak self] files in
            self?.cast(files)
        }
    }

    /// Casts files (chosen, dropped or given on the command line). Without a device the model
    /// keeps them, and the device list is where the user picks one.
    func cast(_ files: [String]) {
        guard !files.isEmpty else { return }
        if model.connectedDevice == nil { showDevices() }
        // Something plays: ask where the files go (CastChoiceDialog.swift).
        if model.castingShouldAsk {
            CastChoiceDialog.present(parent: window.asWindow, files: files) { [unowned self] placement in
                Task { await self.model.castQueue(files, mode: placement) }
            }
            return
        }
        Task { await model.castFiles(files) }
    }

    // MARK: pages

    var isShowingPlayer: Bool { pages.visibleChildName == "player" }

    func showPlayer() {
        guard buildPlayer(), let expanded else { return }
        expanded.root.isVisible = true
        pages.visibleChildName = "player"
        hideOtherPage()
        back.isVisible = true
        castFileButton.isVisible = !narrow
        setMiniControllerShown(false)
        title.setTitle(tr("Now Playing"))
    }

    /// Keys that are shortcuts only when the focused widget has no use for them: Space plays
    /// or pauses unless a button (or a text field) has the focus; Left and Right seek unless a
    /// slider or text field has it; Page Down and Page Up go to the next and previous chapter
    /// unless a slider, list or text field has it. Escape and Alt+Left go back from the player.
    func handleKey(_ key: KeyPress) -> Bool {
        let w = window.asWindow
        let typing = ["GtkText", "GtkTextView", "GtkEditable"]
        switch (key.name, key.control, key.alt) {
        case (let k, false, false) where AppAction.Name.togglePlayPause.yieldingKeys.contains(k):
            if w.focusIsA(typing + ["GtkButton", "GtkCheckButton", "GtkSwitch", "GtkListBoxRow", "GtkMenuButton", "GtkDropDown"]) { return false }
            return activate(.togglePlayPause)
        case (let k, false, false) where AppAction.Name.seekBackward.yieldingKeys.contains(k) || AppAction.Name.seekForward.yieldingKeys.contains(k):
            if w.focusIsA(typing + ["GtkRange", "GtkSpinButton", "GtkListBoxRow", "GtkButton"]) { return false }
            // In a right-to-left layout the arrow keys follow the seek bar's direction.
            let back = AppAction.Name.seekBackward.yieldingKeys.contains(k) != w.isRightToLeft
            return activate(back ? .seekBackward : .seekForward)
        case (let k, false, false) where AppAction.Name.nextChapter.yieldingKeys.contains(k) || AppAction.Name.previousChapter.yieldingKeys.contains(k):
            if w.focusIsA(typing + ["GtkRange", "GtkSpinButton", "GtkListBoxRow"]) { return false }
            return activate(AppAction.Name.nextChapter.yieldingKeys.contains(k) ? .nextChapter : .previousChapter)
        case ("Escape", false, false), ("Left", false, true):
            guard isShowingPlayer else { return false }
            showDevices()
            return true
        default:
            return false
        }
    }

    private func activate(_ name: AppAction.Name) -> Bool {
        guard model.isEnabled(name), let action = name.action() else { return false }
        Task { await model.perform(action) }
        return true
    }

    func showDevices() {
        devices.root.isVisible = true
        pages.visibleChildName = "devices"
        hideOtherPage()
        back.isVisible = false
        castFileButton.isVisible = true
        setMiniControllerShown(model.showsPlayer)
        title.setTitle(tr("CastDeck"))
    }

    /// Hides the content of the page that is not shown once the slide has finished, so
    /// assistive technology offers only what is on screen (one Pause button, not two).
    func hideOtherPage() {
        guard !pages.isTransitionRunning else { return }
        let player = isShowingPlayer
        expanded?.root.isVisible = player
        devices.root.isVisible = !player
    }

    func setMiniControllerShown(_ shown: Bool) {
        if shown { miniRevealer.isVisible = true }
        miniRevealer.revealsChild = shown
        if !shown && !miniRevealer.isChildRevealed { miniRevealer.isVisible = false }
    }

    /// Follows the media: the player page opens when media starts (once per session's media),
    /// and closes when it ends.
    /// The mini controller shows while media is loaded; the player page stays while there is
    /// something to show there (media, or media that ended and can be played again).
    func renderPages() {
        let hasMedia = model.hasMedia
        let showsPlayer = model.showsPlayer
        // Media that ended stays in the bar (Finished, with Play Again) until something else
        // plays or the session ends, so Play Again is reachable from the devices page too.
        if !isShowingPlayer { setMiniControllerShown(showsPlayer) }
        if hasMedia && showPlayerOnMedia && !isShowingPlayer {
            showPlayerOnMedia = false
            showPlayer()
        }
        if !showsPlayer && isShowingPlayer { showDevices() }
        if !hasMedia { showPlayerOnMedia = true }
    }

    func renderReconnecting() {
        let reconnecting = model.isReconnecting
        if reconnecting {
            reconnectLabel.text = tr("Connection lost — reconnecting to {0}…", model.sessionDeviceName ?? tr("the device"))
            if !reconnectRevealer.isVisible {
                // The spinner says "trying" while a quick return is likely; a device that stays
                // away must not cost a tenth of a core in redraws for minutes (measured under
                // Xvfb), so after 10 s the sentence alone stays.
                reconnectSpinner.isSpinning = true
                GLibSource.remove(spinnerTimeout)
                spinnerTimeout = GLibSource.timeout(ms: 10_000) { [weak self] in
                    self?.reconnectSpinner.isSpinning = false
                    self?.spinnerTimeout = 0
                    return false
                }
            }
            reconnectRevealer.isVisible = true
        } else {
            GLibSource.remove(spinnerTimeout)
            spinnerTimeout = 0
        }
        reconnectRevealer.revealsChild = reconnecting
        if !reconnecting { reconnectRevealer.isVisible = false }
    }

    /// A notice as a toast: its first sentence, and "Details" when there is more to read (the
    /// rest of the advice, the technical detail; the dialog offers Try Again for a device that
    /// could not be reached).
    func renderNotice() {
        guard let n = model.notice, n.serial != lastNotice else { return }
        lastNotice = n.serial
        // While the subtitle style editor is up, its own toasts say it.
        if expanded?.styleEditor.isShown == true && n.detail == nil { return }
        // "Forgot “Living Room TV”" with Undo, at once (ahead of a toast that waits to be read)
        // and long enough to find the button.
        if let undo = n.undo {
            toasts.toast(n.text, timeout: 10, button: tr("Undo"), now: true) { [unowned self] in Task { await self.model.undo(undo) } }
            return
        }
        // A session that went away, with Resume: said until read (timeout 0), the button from the table.
        if let offer = n.offer {
            toasts.toast(n.text, timeout: 0, button: offer.label, now: true) { [unowned self] in Task { await self.model.perform(offer) } }
            return
        }
        if n.hasMore {
            // A device that stopped answering is said until read: its toast stays (timeout 0)
            // and its Details offer Try Again, so someone who looks away sees it on return.
            toasts.toast(n.headline, timeout: n.retryDeviceID != nil ? 0 : 8, button: tr("Details")) { [unowned self] in
                self.showDetails(n)
            }
        } else {
            toasts.toast(n.text)
        }
    }

    /// The notice in full: its first sentence as the heading, the rest and the detail below.
    func showDetails(_ n: AppModel.Notice) {
        var responses = [("close", tr("_Close"))]
        if n.retryDeviceID != nil { responses.append(("retry", tr("_Try Again"))) }
        let dialog = MessageDialog.make(
            parent: window.asWindow, heading: n.headline, body: n.explanation ?? "",
            responses: responses, suggested: n.retryDeviceID == nil ? nil : "retry")
        dialog.onResponse { [unowned self] response in
            if response == "retry", let id = n.retryDeviceID { Task { await self.model.retry(deviceID: id) } }
        }
        dialog.asWindow.present()
    }

    func saveSize() {
        guard let settings else { return }
        let size = window.asWindow.defaultSize
        settings.set("window-width", int: size.width)
        settings.set("window-height", int: size.height)
    }
}
