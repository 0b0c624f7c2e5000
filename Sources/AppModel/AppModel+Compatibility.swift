// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastDiscovery

// The names the window (CastDeckUI, castdeck) used before AppModel read CastClient and
// DeviceDirectory directly. They forward to the new API and hold no state; delete this
// file once the window calls `AppModel(directory:client:artwork:preferences:)`, `start()`,
// `directory.attach(browser:)` and `showDevice(_:)` itself.

/// How the window connects: only the client configuration is left of it.
public protocol CastConnector: Sendable {
    var configuration: CastClientConfiguration { get }
}

public struct CastClientConnector: CastConnector {
    public var configuration: CastClientConfiguration
    public init(configuration: CastClientConfiguration = .init()) { self.configuration = configuration }
    /// The default configuration with the reconnect test hooks of `environment` applied
    /// (`ReconnectPolicy.applying(environment:)`).
    public init(environment: [String: String]) {
        var configuration = CastClientConfiguration()
        configuration.reconnect = configuration.reconnect.applying(environment: environment)
        self.configuration = configuration
    }
}

/// mDNS for the device list: says which browser the directory should attach.
public protocol DeviceBrowser: Sendable {
    func makeBrowser() -> CastBrowser
}

/// Browsing through Avahi, waiting for avahi-daemon when it is not running.
public struct AvahiDeviceBrowser: DeviceBrowser {
    public init() {}
    public func makeBrowser() -> CastBrowser { CastBrowser(waitForDaemon: true) }
}

/// What the window used to push into the device list.
public enum DeviceEvent: Sendable {
    case found(DeviceInfo)
    case updated(DeviceInfo)
    case lost(id: String)
    case unavailable(reason: String)
    case browsing
}

extension AppModel {
    /// The model on the standard device list (`$XDG_CONFIG_HOME/castdeck/devices.json`, probed
    /// through CastClient), started at once. `clock` is no longer used: positions come from
    /// CastClient's clock.
    public convenience init(connector: any CastConnector, artwork: any ArtworkProvider = LocalArtworkProvider(),
                            preferences: any StylePreferences, clock: @escaping @Sendable () -> Double) {
        let client = connector.configuration
        let directory = DeviceDirectory(prober: CastClientProber(configuration: client), browser: nil)
        self.init(directory: directory, client: client, artwork: artwork, preferences: preferences)
        start()
    }

    /// Browses with `browser` besides the remembered devices.
    public func startBrowsing(_ browser: any DeviceBrowser) {
        let directory = directory
        let castBrowser = browser.makeBrowser()
        Task { await directory.attach(browser: castBrowser) }
    }

    /// The window was started without network search (CASTDECK_NO_DISCOVERY).
    public func searchingIsOff() { discoveryState = .off }

    public func apply(_ event: DeviceEvent) {
        switch event {
        case .found(let d), .updated(let d): showDevice(d)
        case .lost(let id): deviceList.removeAll { $0.id == id }
        case .unavailable(let reason): discoveryState = .unavailable(reason: reason)
        case .browsing: discoveryState = .browsing
        }
    }
}
