// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastCore
import CastProtocol
import Glibc
import GtkInterop

/// Options from the command line (parsed by the executable).
public struct LaunchOptions: Sendable {
    public var demo = false
    /// "HOST[:PORT]" to add, connect to and join.
    public var device: String?
    /// Files (paths or file:// URIs) to cast once a device is connected.
    public var files: [String] = []
    public init() {}
}

/// What the executable (the composition root, `castdeck`) wires in: the model with its
/// services, searching the network, the demo receiver, and the media controls on the bus. The
/// window builds none of them; it asks for them when it needs them.
public struct Services {
    /// Builds the model on the production services (CastClient, the device directory, the
    /// artwork cache) and starts its device list. `requireVerifiedDevices`: the GSettings key
    /// of that name; `preferences`: where the default subtitle style is kept.
    public var makeModel: @MainActor (_ requireVerifiedDevices: Bool, _ preferences: any StylePreferences) -> AppModel
    /// Starts searching the network for the model's device list (or says it is off).
    public var startBrowsing: @MainActor (AppModel) -> Void
    /// Starts the in-process simulated receiver for --demo; returns the device to list.
    public var startDemoReceiver: (@MainActor () async throws -> DeviceInfo)?
    /// Puts the model on the session bus as media controls (MPRIS), with what the application
    /// does for Raise and Quit. Returns how to take them off the bus again (nil: not started).
    public var startMediaControls: (@MainActor (AppModel, DBusConnection, MediaControlHooks) -> (@MainActor () -> Void)?)?

    public init(
        makeModel: @escaping @MainActor (Bool, any StylePreferences) -> AppModel,
        startBrowsing: @escaping @MainActor (AppModel) -> Void,
        startDemoReceiver: (@MainActor () async throws -> DeviceInfo)?,
        startMediaControls: (@MainActor (AppModel, DBusConnection, MediaControlHooks) -> (@MainActor () -> Void)?)?
    ) {
        self.makeModel = makeModel
        self.startBrowsing = startBrowsing
        self.startDemoReceiver = startDemoReceiver
        self.startMediaControls = startMediaControls
    }
}

/// What the application does when the media controls ask it to show itself or to quit.
public struct MediaControlHooks {
    public var raise: @MainActor () -> Void
    public var quit: @MainActor () -> Void
}

/// The AdwApplication `io.github.castdeck.CastDeck` (single instance through D-Bus).
/// Its .ui files, CSS and icons are a GResource compiled into the binary under
/// `resourcePath`; GTK loads `style.css` and `icons/` from there itself.
@MainActor
public final class CastDeckApplication {
    nonisolated public static let appID = "io.github.castdeck.CastDeck"
    nonisolated public static let resourcePath = "/io/github/castdeck/CastDeck"

    let app: Application
    var options: LaunchOptions
    let services: Services
    let paths: DataPaths
    var settings: Settings?
    var model: AppModel?
    var window: MainWindow?
    /// MPRIS, the mini player and casting in the background (Application+Desktop.swift).
    let desktop = DesktopState()
    /// Non-zero when the window could not be built (a missing or broken resource).
    var failure: Int32 = 0

    public init(options: LaunchOptions, services: Services, paths: DataPaths) {
        self.options = options
        self.services = services
        self.paths = paths
        app = Application(id: Self.appID, handlesOpen: true)
    }

    /// Runs the GLib main loop until the last window closes; returns the exit status.
    public func run() -> Int32 {
        MainQueueBridge.install()
        guard Gtk.resourceExists(MainWindow.resource) else {
            printError(
                "castdeck: the user interface is missing: resource \(MainWindow.resource) is not "
                    + "compiled into this binary (see Sources/CastDeckResources).")
            return 1
        }
        app.onStartup { [unowned self] in self.startup() }
        app.onActivate { [unowned self] in self.activate() }
        app.onOpen { [unowned self] files in self.open(files) }
        let status = app.run(files: options.files)
        return failure != 0 ? failure : status
    }

    func startup() {
        settings = Settings(schemaID: Self.appID)
        // gettext into the one localisation stack (AppModel's Localization).
        Localization.translate = { Gettext.translate($0) }
        Localization.translatePlural = { Gettext.translate($0, $1, $2) }
        Localization.translateLanguageName = { Gettext.translate($0, domain: Gettext.languageNamesDomain) }
        Localization.isRightToLeft = Gettext.isRightToLeft
        Gtk.setDefaultIconName(Self.appID)
        // Ctrl+Q asks first while media is cast (Application+Desktop.swift).
        let quit = SimpleAction(name: "quit") { [unowned self] _ in self.requestQuit() }
        app.add(quit)
        app.setAccels("app.quit", ["<Control>q"])
        app.add(SimpleAction(name: "about") { [unowned self] _ in self.showAbout() })
        installDesktopActions()
    }

    /// Files from this launch (cast once the window is up, after --device connects) or from a
    /// later `castdeck FILE` / "Open With CastDeck", handed over by GApplication.
    func open(_ files: [String]) {
        if let window {
            showFullController()
            window.cast(files)
        } else {
            options.files = files
            activate()
        }
    }

    func activate() {
        // A second launch, Raise over MPRIS or the Shell's card: the window, on the same media.
        if window != nil {
            showFullController()
            return
        }
        let prefs = GSettingsStylePreferences(settings: settings)
        // Refuse devices that cannot prove they are genuine (the refusal is a notice).
        let model = services.makeModel(settings?.bool("require-verified-devices") == true, prefs)
        self.model = model
        // Where playback stopped: the Preferences switch (GSettings, also read by castctl) and
        // the file shared with castctl.
        model.playbackPreferences = GSettingsPlaybackPreferences(settings: settings)
        model.useStandardPlaybackMemory()
        // Cast Screen…'s last sound and quality (GSettings).
        model.mirrorPreferences = GSettingsMirrorPreferences(settings: settings)
        settings?.onChanged(GSettingsPlaybackPreferences.key) { [weak model] in model?.playbackPreferencesChanged() }
        settings?.onChanged(GSettingsPlaybackPreferences.surroundKey) { [weak model] in model?.surroundPreferencesChanged() }
        if let settings {
            model.useMediaPort(
                settings.int("media-port"), transcodeCacheMB: settings.int("transcode-cache-size-mb"),
                transcodeQuality: settings.int("transcode-quality"))
        }
        do {
            let w = try MainWindow(app: app, model: model, settings: settings)
            window = w
            startTimingHooks()
            // The player page, the shortcuts window, media controls (MPRIS), searching the
            // network, the demo receiver and --device wait until the first frame, which shows
            // the device list, has been painted and handed to the display server: they run
            // from the main loop's next idle turn, not inside the frame.
            var started = false
            w.window.asWindow.onFirstFrame { [unowned self] in
                guard !started else { return }
                started = true
                GLibSource.idle { [unowned self] in
                    guard w.buildPlayer() else {
                        self.failure = 1
                        self.app.quit()
                        return
                    }
                    w.installShortcutsWindow(self.app)
                    self.startDesktop(model)
                    self.startServices(model)
                    // The start-up benchmark quits once start-up is complete, so that its peak
                    // RSS counts everything a started window holds.
                    if self.exitAfterStartup { self.app.quit() }
                }
            }
            w.present()
        } catch {
            printError("castdeck: cannot load the window definition: \(error)")
            failure = 1
            app.quit()
            return
        }
        if settings == nil {
            model.post(tr("Settings schema {0} is not installed; preferences will not be kept.", Self.appID))
        }
    }

    private func startServices(_ model: AppModel) {
        services.startBrowsing(model)
        Task { await self.startOptions(model) }
    }

    func startOptions(_ model: AppModel) async {
        if options.demo, let start = services.startDemoReceiver {
            do {
                let device = try await start()
                model.sampleMedia = SampleMedia.bigBuckBunny(artworkPath: paths.sampleArtwork, adPosterPath: paths.sampleAdPoster)
                model.showDevice(device)
            } catch {
                model.post(tr("The demo receiver could not start."), detail: String(describing: error))
            }
        }
        if let address = options.device, let device = model.addDevice(address: address) {
            await model.connect(to: device)
        }
        if !options.files.isEmpty { window?.cast(options.files) }
    }

    func showAbout() {
        AboutWindow.present(
            .init(
                name: tr("CastDeck"), icon: Self.appID, developer: tr("The CastDeck developers"),
                version: CastDeckVersion.string, comments: tr("Control Google Cast devices from your desktop"),
                translators: tr("translator-credits")),
            parent: window?.window.asWindow)
    }

    /// CASTDECK_EXIT_AFTER_FIRST_FRAME=1 prints the time from CASTDECK_T0_NS to the first painted
    /// frame, then quits once the work deferred past that frame is done (the start-up benchmark
    /// uses it).
    var exitAfterStartup: Bool { getenv("CASTDECK_EXIT_AFTER_FIRST_FRAME") != nil }

    func startTimingHooks() {
        guard exitAfterStartup, let w = window?.window else { return }
        w.asWindow.onFirstFrame {
            var ts = timespec()
            clock_gettime(CLOCK_REALTIME, &ts)
            let now = Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
            if let t0 = getenv("CASTDECK_T0_NS").flatMap({ Int64(String(cString: $0)) }) {
                print("first-frame-ms \(Double(now - t0) / 1e6)")
            }
            fflush(nil)
        }
    }
}
