// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// The devices page (device-list.ui): why nothing is listed, one row per device
/// (device-row.ui), "Add device by address…", and the session row (Cast Sample, Disconnect).
/// A row that does nothing when activated (the connected device's, the session and volume
/// rows) is no Tab stop; the others connect on Enter.
@MainActor
final class DeviceList {
    static let resource = CastDeckApplication.resourcePath + "/ui/device-list.ui"
    static let rowResource = CastDeckApplication.resourcePath + "/ui/device-row.ui"

    let model: AppModel
    let settings: Settings?
    /// Owns the page's objects (a builder's non-window objects live as long as it does).
    let ui: Builder
    let root: Widget
    let empty: StatusPage
    let group: PreferencesGroup
    let list: ListBox
    let sessionGroup: PreferencesGroup
    let sessionRow: ActionRow
    let castSample: Button
    let castActions: Widget
    let volumeControl: VolumeControl
    let volumeRow: ActionRow
    /// The other app's icon and Stop, the device's input (ForeignAppView.swift).
    let otherApp: ForeignAppView
    /// A speaker group's speakers and their own volumes (GroupMembersView.swift).
    let members: GroupMembersView
    let trust: Image
    let sessionArtwork: Image
    private var renderedSessionArtwork: String?
    var parent: Window?
    /// Shows a notice in full (the window's details dialog): a device row's Details.
    var showDetails: ((AppModel.Notice) -> Void)?
    var renderedDevices: [DeviceInfo] = []
    var renderedConnection: AppModel.ConnectionState?
    var renderedSpeakers: [String?] = []
    var rows: [String: DeviceRow] = [:]

    init(model: AppModel, settings: Settings?) throws {
        self.model = model
        self.settings = settings
        ui = try Builder(resource: Self.resource)
        root = ui.get("page")
        empty = ui.get("empty")
        empty.setBlankIcon(size: 128)  // style.css draws the symbolic icon on it
        group = ui.get("device-group")
        list = ui.get("device-list")
        sessionGroup = ui.get("session-group")
        sessionRow = ui.get("session-row")
        castSample = ui.get("cast-sample")
        castActions = ui.get("cast-actions")
        volumeControl = VolumeControl(model: model, slider: ui.get("device-volume"), mute: ui.get("device-mute"))
        trust = ui.get("trust")
        sessionArtwork = ui.get("session-artwork")
        volumeRow = ui.get("volume-row")
        otherApp = ForeignAppView(model: model, sessionRow: sessionRow, ui: ui)
        members = GroupMembersView(model: model, group: sessionGroup, volumeRow: volumeRow)
        for id in ["add-device", "add-device-empty"] {
            ui.get(id, as: Button.self).onClicked { [unowned self] in self.addByAddress() }
        }
    }

    /// Add Device by Address: saved and connected to only once a device answers there (it
    /// then becomes the last device used); Add Anyway saves it without connecting.
    func addByAddress() {
        AddDeviceDialog.present(
            parent: parent,
            add: { [unowned self] text in
                switch await self.model.addDeviceIfAnswering(address: text) {
                case .added(let device):
                    self.pick(device)
                    return nil
                case .failed(let sentence, _):
                    return sentence
                }
            },
            addAnyway: { [unowned self] text in
                self.model.addDevice(address: text)
            })
    }

    func render() {
        renderList()
        renderSession()
    }

    private func renderList() {
        let devices = model.devices
        let connection = model.connection
        // Empty state: say why nothing is listed and what to do.
        switch model.discoveryState {
        case .avahiNotRunning:
            empty.set(
                title: tr("Cannot Search for Devices"),
                description: tr("Avahi, the service that finds devices on the network, is not running. Start avahi-daemon, or add a device by its address."))
        case .off:
            empty.set(
                title: tr("No Devices Added"),
                description: tr("Searching the network is turned off. Add a device by its address."))
        case .unavailable:
            empty.set(
                title: tr("Cannot Search for Devices"),
                description: tr("Searching the network failed. Add a device by its address."))
        case .starting, .browsing:
            empty.set(
                title: tr("No Cast Devices Found"),
                description: tr("Make sure the device is switched on and on the same network as this computer, or add it by its address."))
        }
        empty.isVisible = devices.isEmpty
        group.isVisible = !devices.isEmpty
        ui.get("add-device", as: Button.self).isVisible = !devices.isEmpty
        group.setDescription(devices.isEmpty ? "" : ntr("{0} device", "{0} devices", devices.count, devices.count))
        let speakers = devices.map { model.memberSummary(ofGroup: $0.id) }
        guard devices != renderedDevices || connection != renderedConnection || speakers != renderedSpeakers else { return }
        // Rows are made when the set of devices changes and updated in place otherwise (a
        // connection starting or ending): fewer widgets come and go under assistive technology.
        if devices.map(\.id) != renderedDevices.map(\.id) {
            list.removeAll()
            rows = [:]
            for device in devices {
                guard let row = try? DeviceRow(list: self, device: device) else { continue }
                rows[device.id] = row
                list.append(row.row)
            }
        }
        renderedDevices = devices
        renderedConnection = connection
        renderedSpeakers = speakers
        for device in devices { rows[device.id]?.update(device, connection) }
    }

    /// One row from device-row.ui (the list owns the row; this keeps its builder and device).
    @MainActor
    final class DeviceRow {
        let ui: Builder
        let row: ActionRow
        let model: AppModel
        var device: DeviceInfo

        init(list: DeviceList, device: DeviceInfo) throws {
            ui = try Builder(resource: DeviceList.rowResource)
            model = list.model
            row = ui.get("row")
            self.device = device
            ui.get("connect", as: Button.self).onClicked { [unowned self, unowned list] in list.pick(self.device) }
            row.onActivated { [unowned self, unowned list] in
                if case .connected(let id) = list.model.connection, id == self.device.id { return }
                list.pick(self.device)
            }
            ui.get("forget", as: Button.self).onClicked { [unowned self, unowned list] in list.model.forget(self.device) }
            installMirrorMenu()  // DeviceList+Mirror.swift
            ui.get("details", as: Button.self).onClicked { [unowned self, unowned list] in
                if let notice = list.model.details(of: self.device) { list.showDetails?(notice) }
            }
        }

        func update(_ d: DeviceInfo, _ connection: AppModel.ConnectionState) {
            device = d
            row.title = d.friendlyName
            // The port when it is not the usual one, so two receivers on one host tell apart.
            var parts: [String] = []
            if d.origin != .demo, d.port != 8009, !d.friendlyName.hasSuffix(":\(d.port)") {
                parts.append(d.host.contains(":") ? "[\(d.host)]:\(d.port)" : "\(d.host):\(d.port)")
            }
            // A group known by its speakers (one added by address has no model to say it).
            let speakers = model.memberSummary(ofGroup: d.id)
            let isGroup = d.isGroup || speakers != nil
            if !d.model.isEmpty, !(speakers != nil && d.device.model == nil) { parts.append(d.model) }
            if let status = d.statusText, !status.isEmpty { parts.append(status) }
            if let speakers { parts.append(speakers) }
            // A failed probe in a word or two; the sentence and the error are behind Details.
            if let problem = d.problem { parts.append(problem.state) }
            row.subtitle = Localization.joinParts(parts.map { isolateLTRIfAddress($0) })
            let icon: Image = ui.get("icon"), groupBadge: Label = ui.get("group-badge")
            let spinner: Widget = ui.get("spinner"), check: Image = ui.get("connected"), busy: Label = ui.get("busy-badge")
            icon.setIconName(isGroup ? "audio-speakers-symbolic" : "video-display-symbolic")
            groupBadge.isVisible = isGroup
            let isConnecting = connection == .connecting(deviceID: d.id) || connection == .reconnecting(deviceID: d.id)
            let isConnected = connection == .connected(deviceID: d.id)
            let idle = !isConnecting && !isConnected
            spinner.isVisible = isConnecting
            check.isVisible = isConnected
            let details: Button = ui.get("details")
            details.isVisible = d.problem != nil && idle
            details.setAccessibleDescription(d.friendlyName)
            let forget: Button = ui.get("forget")
            forget.isVisible = d.origin == .added && idle
            forget.setAccessibleDescription(d.friendlyName)
            busy.isVisible = idle && d.isBusy
            let button: Button = ui.get("connect")
            button.isVisible = idle
            button.label = d.isBusy ? tr("Join") : tr("Connect")
            button.setAccessibleName(d.isBusy ? tr("Join {0}", d.friendlyName) : tr("Connect to {0}", d.friendlyName))
            renderMirrorMenu()
            // Activating the connected row would do nothing: it is then no Tab stop either.
            row.isActivatable = idle
        }
    }

    func pick(_ device: DeviceInfo) {
        settings?.set("last-device", string: device.id)
        Task { await model.connect(to: device) }
    }

    private func renderSession() {
        let connected = model.connectedDevice
        sessionGroup.isVisible = connected != nil
        if let connected {
            sessionRow.title = tr("Connected to {0}", connected.friendlyName)
            if let file = model.preparingFile {
                sessionRow.subtitle = tr("Preparing {0}…", file)
            } else if model.hasMedia {
                sessionRow.subtitle = tr("Now playing {0}", model.title)
            } else if let ended = model.phase.endedText, model.showsPlayer {
                // Ended while this page was shown: say how; the bar below offers Play Again.
                sessionRow.subtitle = Localization.joinParts([ended, model.title])
            } else if let app = model.foreignApp {
                sessionRow.subtitle = tr("{0} is running on this device. CastDeck cannot control it, but you can cast something else.", app)
            } else {
                sessionRow.subtitle = tr("Nothing is playing")
            }
            otherApp.render()
        }
        let art = connected == nil ? nil : model.artworkPath(for: .deviceList)
        if let art, art != renderedSessionArtwork { sessionArtwork.setFile(art) }
        renderedSessionArtwork = art
        sessionArtwork.isVisible = art != nil
        volumeRow.subtitle = model.hasFixedVolume ? tr("Fixed: set it on the TV or amplifier") : ""
        // Cast something else: also over an app CastDeck did not start, which casting replaces.
        castActions.isVisible = connected != nil && (!model.hasMedia || model.otherApp != nil) && model.preparingFile == nil
        if connected != nil { volumeControl.render() }
        members.render()
        castSample.isVisible = model.sampleMedia != nil
        TrustMark.render(trust, connected == nil ? .unknown : model.trust)
    }
}

/// Addresses ("10.0.0.2:8009") stay left-to-right inside right-to-left text.
func isolateLTRIfAddress(_ s: String) -> String { Localization.isolatedAddress(s) }
