import AppModel
import CastProtocol
import CGtk
import GLibInterop
import GtkInterop

/// The main window: device picker (the Cast dialog as a page), mini controller at the bottom,
/// expanded controller as a second page. Renders `AppModel`; sends its commands.
@MainActor
public final class MainWindow {
    public let window: Widget
    let model: AppModel
    let paths: DataPaths
    let settings: Settings?
    let ui: Builder
    let toasts: Widget
    let pages: Widget
    let back: Widget
    let title: Widget
    let deviceList: Widget
    let empty: Widget
    let deviceGroup: Widget
    let sessionGroup: Widget
    let miniRevealer: Widget
    let mini: MiniController
    let expanded: ExpandedController
    var sessionRow: Widget?
    var castSampleButton: Widget?
    var disconnectButton: Widget?
    var renderedDevices: [DeviceInfo] = []
    var renderedConnection: AppModel.ConnectionState?
    var lastNotice = 0
    var tokens: [ObservationToken] = []
    var tick: guint = 0
    var showPlayerOnMedia = true

    public init(app: UnsafeMutablePointer<GtkApplication>, model: AppModel, paths: DataPaths, settings: Settings?) throws {
        self.model = model
        self.paths = paths
        self.settings = settings
        ui = try Builder(file: paths.ui("window.ui"))
        window = adw_application_window_new(app)
        toasts = ui.widget("toasts")
        pages = ui.widget("pages")
        back = ui.widget("back")
        title = ui.widget("title")
        deviceList = ui.widget("device-list")
        empty = ui.widget("empty")
        deviceGroup = ui.widget("device-group")
        sessionGroup = ui.widget("session-group")
        miniRevealer = ui.widget("mini-revealer")
        mini = MiniController(model: model)
        expanded = ExpandedController(model: model, paths: paths)

        adw_application_window_set_content(cast(window), toasts)
        gtk_window_set_title(cast(window), tr("CastDeck"))
        let width = settings?.int("window-width") ?? 720
        let height = settings?.int("window-height") ?? 760
        gtk_window_set_default_size(cast(window), Int32(max(360, width)), Int32(max(400, height)))
        gtk_revealer_set_child(cast(miniRevealer), mini.root)
        gtk_scrolled_window_set_child(cast(ui.widget("player-scroll")), expanded.root)

        let add = ui.widget("add-device")
        Gtk.setAccessibleName(add, tr("Add device by address"))
        add.on("clicked") { [unowned self] in self.promptForAddress() }
        back.on("clicked") { [unowned self] in self.showDevices() }
        Gtk.setAccessibleName(back, tr("Back to devices"))
        mini.onOpen = { [unowned self] in self.showPlayer() }
        expanded.onToast = { [unowned self] text in Gtk.toast(self.toasts, text) }
        expanded.parentWindow = window

        buildSessionGroup()
        installActions(app)
        loadShortcutsWindow(app)
        window.onBool("close-request") { [unowned self] in self.saveSize(); return false }

        tokens.append(observe { [unowned self] in self.renderDevices() })
        tokens.append(observe { [unowned self] in self.renderSession() })
        tokens.append(observe { [unowned self] in self.renderNotice() })
        tokens.append(observe { [unowned self] in self.mini.render(); self.expanded.render() })
        // Interpolated position and ad countdowns: redraw twice a second while something plays.
        tick = GLibSource.timeout(ms: 500) { [weak self] in
            guard let self else { return false }
            if self.model.isPlaying || self.model.isPlayingAd {
                self.mini.renderProgress()
                self.expanded.renderProgress()
            }
            return true
        }
    }

    public func present() { gtk_window_present(cast(window)) }

    // MARK: pages

    func showPlayer() {
        gtk_stack_set_visible_child_name(cast(pages), "player")
        Gtk.setVisible(back, true)
        gtk_revealer_set_reveal_child(cast(miniRevealer), 0)
        adw_window_title_set_title(cast(title), tr("Now Playing"))
    }

    func showDevices() {
        gtk_stack_set_visible_child_name(cast(pages), "devices")
        Gtk.setVisible(back, false)
        gtk_revealer_set_reveal_child(cast(miniRevealer), model.hasMedia.gboolean)
        adw_window_title_set_title(cast(title), tr("CastDeck"))
    }

    var isShowingPlayer: Bool {
        gtk_stack_get_visible_child_name(cast(pages)).map { String(cString: $0) } == "player"
    }

    // MARK: devices

    func renderDevices() {
        let devices = model.devices
        let connection = model.connection
        // Empty state: say why nothing is listed and what to do.
        switch model.discoveryState {
        case .unavailable(let reason):
            adw_status_page_set_title(cast(empty), tr("Cannot Search for Devices"))
            adw_status_page_set_description(cast(empty),
                reason + "\n" + tr("Start the Avahi daemon (avahi-daemon), or add a device by its address."))
        case .starting, .browsing:
            adw_status_page_set_title(cast(empty), tr("No Cast Devices Found"))
            adw_status_page_set_description(cast(empty),
                tr("Make sure the device is switched on and on the same network as this computer, or add it by its address."))
        }
        Gtk.setVisible(empty, devices.isEmpty)
        Gtk.setVisible(deviceGroup, !devices.isEmpty)
        let subtitle = devices.isEmpty ? "" : ntr("{0} device", "{0} devices", devices.count, devices.count)
        adw_preferences_group_set_description(cast(deviceGroup), subtitle)
        guard devices != renderedDevices || connection != renderedConnection else { return }
        renderedDevices = devices
        renderedConnection = connection
        while let child = gtk_widget_get_first_child(deviceList) {
            gtk_list_box_remove(cast(deviceList), child)
        }
        for device in devices { gtk_list_box_append(cast(deviceList), deviceRow(device, connection)) }
    }

    func deviceRow(_ d: DeviceInfo, _ connection: AppModel.ConnectionState) -> Widget {
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(cast(row), d.friendlyName)
        var sub = d.model
        if let status = d.statusText, !status.isEmpty { sub += " · " + status }
        adw_action_row_set_subtitle(cast(row), sub)
        // libadwaita labels the row by its title, so screen readers (and the tests) find each
        // row by the device's friendly name; an explicit label would be appended to it.
        let icon = gtk_image_new_from_icon_name(d.isGroup ? "audio-speakers-symbolic" : "video-display-symbolic")!
        adw_action_row_add_prefix(cast(row), icon)
        if d.isGroup {
            adw_action_row_add_suffix(cast(row), Gtk.label(tr("Group"), classes: ["group-badge"]))
        }
        let isConnecting = connection == .connecting(deviceID: d.id)
        let isConnected = connection == .connected(deviceID: d.id)
        if isConnecting {
            let spinner = gtk_spinner_new()!
            gtk_spinner_start(cast(spinner))
            Gtk.setAccessibleName(spinner, tr("Connecting"))
            adw_action_row_add_suffix(cast(row), spinner)
        } else if isConnected {
            let check = gtk_image_new_from_icon_name("emblem-ok-symbolic")!
            Gtk.setAccessibleName(check, tr("Connected"))
            adw_action_row_add_suffix(cast(row), check)
        } else {
            if d.isBusy {
                adw_action_row_add_suffix(cast(row), Gtk.label(tr("In use"), classes: ["busy-badge"]))
            }
            let button = gtk_button_new_with_label(d.isBusy ? tr("Join") : tr("Connect"))!
            gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
            Gtk.setAccessibleName(button, d.isBusy ? tr("Join {0}", d.friendlyName) : tr("Connect to {0}", d.friendlyName))
            button.on("clicked") { [unowned self] in self.pick(d) }
            adw_action_row_add_suffix(cast(row), button)
            gtk_list_box_row_set_activatable(cast(row), 1)
            row.on("activated") { [unowned self] in self.pick(d) }
        }
        return row
    }

    func pick(_ device: DeviceInfo) {
        settings?.set("last-device", string: device.id)
        Task { await model.connect(to: device) }
    }

    func promptForAddress() {
        let dialog = adw_message_dialog_new(cast(window), tr("Add Device by Address"),
            tr("Enter the IP address or host name of the Cast device, optionally followed by :port (8009 by default)."))!
        let entry = gtk_entry_new()!
        gtk_entry_set_placeholder_text(cast(entry), "192.168.1.20:8009")
        Gtk.setAccessibleName(entry, tr("Device address"))
        gtk_entry_set_activates_default(cast(entry), 1)
        adw_message_dialog_set_extra_child(cast(dialog), entry)
        adw_message_dialog_add_response(cast(dialog), "cancel", tr("_Cancel"))
        adw_message_dialog_add_response(cast(dialog), "add", tr("_Add and Connect"))
        adw_message_dialog_set_response_appearance(cast(dialog), "add", ADW_RESPONSE_SUGGESTED)
        adw_message_dialog_set_default_response(cast(dialog), "add")
        adw_message_dialog_set_close_response(cast(dialog), "cancel")
        dialog.on("response") { [unowned self] (response: UnsafeMutableRawPointer?) in
            guard let response, String(cString: response.assumingMemoryBound(to: CChar.self)) == "add" else { return }
            let text = String(cString: gtk_editable_get_text(cast(entry)))
            if let device = self.model.addDevice(address: text) { self.pick(device) }
        }
        gtk_window_present(cast(dialog))
    }

    // MARK: session

    func buildSessionGroup() {
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(cast(row), tr("Not connected"))
        let cast1 = gtk_button_new_with_label(tr("Cast Sample"))!
        gtk_widget_add_css_class(cast1, "suggested-action")
        gtk_widget_set_valign(cast1, GTK_ALIGN_CENTER)
        Gtk.setAccessibleName(cast1, tr("Cast sample"))
        cast1.on("clicked") { [unowned self] in
            self.showPlayerOnMedia = true
            Task { await self.model.castSample() }
        }
        let leave = gtk_button_new_with_label(tr("Disconnect"))!
        gtk_widget_set_valign(leave, GTK_ALIGN_CENTER)
        leave.on("clicked") { [unowned self] in Task { await self.model.disconnect() } }
        adw_action_row_add_suffix(cast(row), cast1)
        adw_action_row_add_suffix(cast(row), leave)
        adw_preferences_group_add(cast(sessionGroup), row)
        sessionRow = row
        castSampleButton = cast1
        disconnectButton = leave
    }

    func renderSession() {
        let connected = model.connectedDevice
        Gtk.setVisible(sessionGroup, connected != nil)
        if let connected, let row = sessionRow {
            adw_preferences_row_set_title(cast(row), tr("Connected to {0}", connected.friendlyName))
            adw_action_row_set_subtitle(cast(row), model.hasMedia ? tr("Now playing {0}", model.title) : tr("Nothing is playing"))
        }
        if let b = castSampleButton { Gtk.setVisible(b, model.sampleMedia != nil) }
        let hasMedia = model.hasMedia
        if !isShowingPlayer {
            gtk_revealer_set_reveal_child(cast(miniRevealer), hasMedia.gboolean)
        }
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
        Gtk.toast(toasts, n.text)
    }

    // MARK: actions and shortcuts

    func installActions(_ app: UnsafeMutablePointer<GtkApplication>) {
        Actions.add(window, "toggle-play", accels: ["space"], app: app, prefix: "win") { [unowned self] in
            guard self.model.hasMedia else { return }
            Task { await self.model.togglePlayPause() }
        }
        Actions.add(window, "seek-back", accels: ["Left"], app: app, prefix: "win") { [unowned self] in
            guard self.model.hasMedia else { return }
            Task { await self.model.seek(by: -10) }
        }
        Actions.add(window, "seek-forward", accels: ["Right"], app: app, prefix: "win") { [unowned self] in
            guard self.model.hasMedia else { return }
            Task { await self.model.seek(by: 10) }
        }
    }

    func loadShortcutsWindow(_ app: UnsafeMutablePointer<GtkApplication>) {
        guard let b = try? Builder(file: paths.ui("shortcuts.ui")), let overlay = b.object("help_overlay") else { return }
        gtk_application_window_set_help_overlay(cast(window), cast(overlay))
        Actions.setAccels(app, "win.show-help-overlay", ["<Control>question"])
    }

    func saveSize() {
        guard let settings else { return }
        var w: Int32 = 0, h: Int32 = 0
        gtk_window_get_default_size(cast(window), &w, &h)
        settings.set("window-width", int: Int(w))
        settings.set("window-height", int: Int(h))
    }
}
