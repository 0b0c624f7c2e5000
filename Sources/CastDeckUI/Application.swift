import AppModel
import CastProtocol
import CGtk
import GLibInterop
import GtkInterop

/// Options from the command line (parsed by the executable).
public struct LaunchOptions: Sendable {
    public var demo = false
    /// "HOST[:PORT]" to add, connect to and join.
    public var device: String?
    public init() {}
}

/// What the executable wires in: how to connect, where devices come from, and the demo receiver.
public struct Services {
    public var connector: any CastConnector
    public var browser: (any DeviceBrowser)?
    public var artwork: any ArtworkProvider
    /// Starts the in-process simulated receiver for --demo; returns the device to list.
    public var startDemoReceiver: (@MainActor () async throws -> DeviceInfo)?

    public init(connector: any CastConnector, browser: (any DeviceBrowser)?, artwork: any ArtworkProvider,
                startDemoReceiver: (@MainActor () async throws -> DeviceInfo)?) {
        self.connector = connector; self.browser = browser; self.artwork = artwork
        self.startDemoReceiver = startDemoReceiver
    }
}

/// The AdwApplication `io.github.castdeck.CastDeck` (single instance through D-Bus).
@MainActor
public final class CastDeckApplication {
    public static let appID = "io.github.castdeck.CastDeck"
    let app: UnsafeMutablePointer<AdwApplication>
    let options: LaunchOptions
    let services: Services
    let paths: DataPaths
    var settings: Settings?
    var model: AppModel?
    var window: MainWindow?

    public init(options: LaunchOptions, services: Services, paths: DataPaths) {
        self.options = options
        self.services = services
        self.paths = paths
        app = adw_application_new(Self.appID, G_APPLICATION_DEFAULT_FLAGS)
    }

    /// Runs the GLib main loop until the last window closes; returns the exit status.
    public func run() -> Int32 {
        MainQueueBridge.install()
        app.on("startup") { [unowned self] in self.startup() }
        app.on("activate") { [unowned self] in self.activate() }
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(CommandLine.arguments.first ?? "castdeck"), nil]
        defer { free(argv[0]) }
        return g_application_run(cast(app), 1, &argv)
    }

    func startup() {
        settings = Settings(schemaID: Self.appID)
        Localization.translate = { Gettext.translate($0) }
        Gtk.loadCSS(path: paths.css)
        gtk_icon_theme_add_search_path(gtk_icon_theme_get_for_display(gdk_display_get_default()), paths.iconDir)
        gtk_window_set_default_icon_name(Self.appID)
        let gtkApp: UnsafeMutablePointer<GtkApplication> = cast(app)
        Actions.add(app, "quit", accels: ["<Control>q"], app: gtkApp) { [unowned self] in
            self.window?.saveSize()
            g_application_quit(cast(self.app))
        }
        Actions.add(app, "about", app: gtkApp) { [unowned self] in self.showAbout() }
    }

    func activate() {
        if let window { window.present(); return }
        let prefs = GSettingsStylePreferences(settings: settings)
        let model = AppModel(connector: services.connector, artwork: services.artwork, preferences: prefs,
                             clock: { monotonicSeconds() })
        self.model = model
        do {
            let w = try MainWindow(app: cast(app), model: model, paths: paths, settings: settings)
            window = w
            startTimingHooks()
            w.present()
        } catch {
            printError("castdeck: cannot load the window definition from \(paths.dataDir): \(error)")
            g_application_quit(cast(app))
            return
        }
        if settings == nil {
            model.post(tr("Settings schema {0} is not installed; preferences will not be kept.", Self.appID))
        }
        if let browser = services.browser { model.startBrowsing(browser) }
        else { model.apply(.unavailable(reason: tr("Device discovery is not available in this build."))) }
        Task { await self.startOptions(model) }
    }

    func startOptions(_ model: AppModel) async {
        if options.demo, let start = services.startDemoReceiver {
            do {
                let device = try await start()
                model.sampleMedia = SampleMedia.bigBuckBunny(artworkPath: paths.sampleArtwork)
                model.apply(.found(device))
            } catch {
                model.post(tr("The demo receiver could not start: {0}", AppModel.describe(error)))
            }
        }
        if let address = options.device, let device = model.addDevice(address: address) {
            await model.connect(to: device)
        }
    }

    func showAbout() {
        let about = adw_about_window_new()!
        adw_about_window_set_application_name(cast(about), tr("CastDeck"))
        adw_about_window_set_application_icon(cast(about), Self.appID)
        adw_about_window_set_developer_name(cast(about), tr("The CastDeck developers"))
        adw_about_window_set_version(cast(about), "0.1.0")
        adw_about_window_set_comments(cast(about), tr("Control Google Cast devices from your desktop"))
        adw_about_window_set_license_type(cast(about), GTK_LICENSE_GPL_3_0)
        adw_about_window_set_translator_credits(cast(about), tr("translator-credits"))
        if let w = window?.window { gtk_window_set_transient_for(cast(about), cast(w)) }
        gtk_window_present(cast(about))
    }

    /// CASTDECK_EXIT_AFTER_FIRST_FRAME=1 prints the time from CASTDECK_T0_NS to the first painted
    /// frame and quits (the start-up benchmark uses it).
    func startTimingHooks() {
        guard getenv("CASTDECK_EXIT_AFTER_FIRST_FRAME") != nil, let w = window?.window else { return }
        w.on("map") { [unowned self] in
            guard let clock = gtk_widget_get_frame_clock(w) else { return }
            var fired = false
            clock.on("after-paint") { [unowned self] in
                guard !fired else { return }
                fired = true
                var ts = timespec()
                clock_gettime(CLOCK_REALTIME, &ts)
                let now = Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
                if let t0 = getenv("CASTDECK_T0_NS").flatMap({ Int64(String(cString: $0)) }) {
                    print("first-frame-ms \(Double(now - t0) / 1e6)")
                }
                fflush(nil)
                g_application_quit(cast(self.app))
            }
        }
    }
}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// The default subtitle style in GSettings (one key per TextTrackStyle field; "" = unset).
@MainActor
final class GSettingsStylePreferences: StylePreferences {
    let settings: Settings?
    var fallback: TextTrackStyle?

    init(settings: Settings?) { self.settings = settings }

    var defaultTextTrackStyle: TextTrackStyle? {
        get {
            guard let s = settings else { return fallback }
            guard s.bool("text-style-set") else { return nil }
            func str(_ k: String) -> String? { let v = s.string(k); return v.isEmpty ? nil : v }
            return TextTrackStyle(
                foregroundColor: str("text-style-foreground-color"),
                backgroundColor: str("text-style-background-color"),
                edgeType: str("text-style-edge-type").map(TextTrackEdgeType.init(rawValue:)),
                edgeColor: str("text-style-edge-color"),
                fontScale: s.double("text-style-font-scale"),
                fontFamily: str("text-style-font-family"),
                fontGenericFamily: str("text-style-font-generic-family").map(TextTrackFontGenericFamily.init(rawValue:)),
                fontStyle: str("text-style-font-style").map(TextTrackFontStyle.init(rawValue:)),
                windowType: str("text-style-window-type").map(TextTrackWindowType.init(rawValue:)),
                windowColor: str("text-style-window-color"),
                windowRoundedCornerRadius: s.double("text-style-window-corner-radius"))
        }
        set {
            guard let s = settings else { fallback = newValue; return }
            let v = newValue ?? .default
            s.set("text-style-foreground-color", string: v.foregroundColor ?? "")
            s.set("text-style-background-color", string: v.backgroundColor ?? "")
            s.set("text-style-edge-type", string: v.edgeType?.rawValue ?? "")
            s.set("text-style-edge-color", string: v.edgeColor ?? "")
            s.set("text-style-font-scale", double: v.fontScale ?? 1)
            s.set("text-style-font-family", string: v.fontFamily ?? "")
            s.set("text-style-font-generic-family", string: v.fontGenericFamily?.rawValue ?? "")
            s.set("text-style-font-style", string: v.fontStyle?.rawValue ?? "")
            s.set("text-style-window-type", string: v.windowType?.rawValue ?? "")
            s.set("text-style-window-color", string: v.windowColor ?? "")
            s.set("text-style-window-corner-radius", double: v.windowRoundedCornerRadius ?? 0)
            s.set("text-style-set", bool: newValue != nil)
            Settings.sync()
        }
    }
}
