import AppModel
import GtkInterop

/// The main window (main-window.ui): the device list and the expanded controller as two pages
/// of a stack, the mini controller at the bottom. Renders `AppModel`; every command goes
/// through `ModelActions` (the AppAction table as "win." actions).
@MainActor
public final class MainWindow {
    static let resource = CastDeckApplication.resourcePath + "/ui/main-window.ui"

    let window: ApplicationWindow
    let model: AppModel
    let settings: Settings?
    let actions: ModelActions
    let toasts: ToastOverlay
    let pages: Stack
    let back: Button
    let title: WindowTitle
    let miniRevealer: Revealer
    let devices: DeviceList
    let mini: MiniController
    let expanded: ExpandedController
    var lastNotice = 0
    var tokens: [ObservationToken] = []
    var tick: UInt32 = 0
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
        title = ui.get("title")
        miniRevealer = ui.get("mini-revealer")
        actions = ModelActions(model: model)
        devices = try DeviceList(model: model, settings: settings)
        mini = try MiniController(model: model)
        expanded = try ExpandedController(model: model, actions: actions)

        window.setApplication(app)
        let width = settings?.int("window-width") ?? 720
        let height = settings?.int("window-height") ?? 760
        window.asWindow.defaultSize = (max(360, width), max(400, height))
        ui.get("devices-scroll", as: ScrolledWindow.self).setChild(devices.root)
        ui.get("player-scroll", as: ScrolledWindow.self).setChild(expanded.root)
        miniRevealer.setChild(mini.root)
        // A bar that slid away is hidden too, so assistive technology does not offer its
        // buttons next to the expanded controller's.
        miniRevealer.onChildRevealedChanged { [unowned self] in
            if !self.miniRevealer.revealsChild && !self.miniRevealer.isChildRevealed { self.miniRevealer.isVisible = false }
        }

        // Likewise the page the stack slid away from: GTK keeps it in the accessibility tree.
        pages.onTransitionRunningChanged { [unowned self] in self.hideOtherPage() }
        devices.root.isVisible = true
        expanded.root.isVisible = false

        actions.install(on: window.asWindow)
        actions.installAccelerators(app)
        // "Cast a file" (AppAction.chooseFiles): the chooser is the window's; the files go to the model.
        model.filePicker = { [unowned self] in self.chooseFiles() }
        window.asWindow.onFilesDropped { [unowned self] files in self.cast(files) }
        back.onClicked { [unowned self] in self.showDevices() }
        mini.onOpen = { [unowned self] in self.showPlayer() }
        devices.parent = window.asWindow
        expanded.parent = window.asWindow
        window.asWindow.onCloseRequest { [unowned self] in self.saveSize(); return self.closeRequested?() ?? false }

        tokens.append(observe { [unowned self] in self.devices.render() })
        tokens.append(observe { [unowned self] in self.renderPages() })
        tokens.append(observe { [unowned self] in self.renderNotice() })
        tokens.append(observe { [unowned self] in
            self.actions.refresh()
            self.mini.render()
            self.expanded.render()
        })
        // Interpolated position and ad countdowns: redraw twice a second while something plays.
        tick = GLibSource.timeout(ms: 500) { [weak self] in
            guard let self else { return false }
            if self.model.isPlaying || self.model.isPlayingAd {
                self.actions.refresh()
                self.mini.renderProgress()
                self.expanded.renderProgress()
            }
            return true
        }
    }

    func present() { window.asWindow.present() }

    // MARK: files from this computer

    /// The types the file dialog offers first: what a Cast device plays directly (LocalMedia
    /// says why when a chosen file is something else).
    static let mediaTypes = [
        "video/mp4", "video/webm", "video/quicktime", "video/x-m4v", "audio/mpeg", "audio/mp4", "audio/aac",
        "audio/flac", "audio/ogg", "audio/opus", "audio/wav", "audio/x-wav", "audio/webm",
        "image/jpeg", "image/png", "image/gif", "image/webp", "image/bmp",
    ]

    func chooseFiles() {
        FileDialog.openFiles(parent: window.asWindow, title: tr("Cast a File"), filterName: tr("Media files"),
                             mimeTypes: Self.mediaTypes, allFilesName: tr("All files"),
                             acceptLabel: tr("_Cast"), cancelLabel: tr("_Cancel")) { [weak self] files in
            self?.cast(files)
        }
    }

    /// Casts files (chosen, dropped or given on the command line). Without a device the model
    /// keeps them, and the device list is where the user picks one.
    func cast(_ files: [String]) {
        guard !files.isEmpty else { return }
        if model.connectedDevice == nil { showDevices() }
        Task { await model.castFiles(files) }
    }

    // MARK: pages

    var isShowingPlayer: Bool { pages.visibleChildName == "player" }

    func showPlayer() {
        expanded.root.isVisible = true
        pages.visibleChildName = "player"
        hideOtherPage()
        back.isVisible = true
        setMiniControllerShown(false)
        title.setTitle(tr("Now Playing"))
    }

    func showDevices() {
        devices.root.isVisible = true
        pages.visibleChildName = "devices"
        hideOtherPage()
        back.isVisible = false
        setMiniControllerShown(model.hasMedia)
        title.setTitle(tr("CastDeck"))
    }

    /// Hides the content of the page that is not shown once the slide has finished, so
    /// assistive technology offers only what is on screen (one Pause button, not two).
    func hideOtherPage() {
        guard !pages.isTransitionRunning else { return }
        let player = isShowingPlayer
        expanded.root.isVisible = player
        devices.root.isVisible = !player
    }

    func setMiniControllerShown(_ shown: Bool) {
        if shown { miniRevealer.isVisible = true }
        miniRevealer.revealsChild = shown
        if !shown && !miniRevealer.isChildRevealed { miniRevealer.isVisible = false }
    }

    /// Follows the media: the player page opens when media starts (once per session's media),
    /// and closes when it ends.
    func renderPages() {
        let hasMedia = model.hasMedia
        if !isShowingPlayer { setMiniControllerShown(hasMedia) }
        if hasMedia && showPlayerOnMedia && !isShowingPlayer {
            showPlayerOnMedia = false
            showPlayer()
        }
        if !hasMedia && isShowingPlayer { showDevices() }
        if !hasMedia { showPlayerOnMedia = true }
    }

    func renderNotice() {
        guard let n = model.notice, n.serial != lastNotice else { return }
        lastNotice = n.serial
        toasts.toast(n.text)
    }

    func saveSize() {
        guard let settings else { return }
        let size = window.asWindow.defaultSize
        settings.set("window-width", int: size.width)
        settings.set("window-height", int: size.height)
    }
}
