import CastDiscovery

/// AppModel's device browser on CastDiscovery (avahi-client). Waits for avahi-daemon when it
/// is not running, and says so meanwhile (the device list explains it).
public struct AvahiDeviceBrowser: DeviceBrowser {
    public init() {}

    public func events() -> AsyncStream<DiscoveryEvent> {
        let browser = CastBrowser(waitForDaemon: true)
        browser.start()
        return AsyncStream { continuation in
            let task = Task {
                for await event in browser.events { continuation.yield(Self.map(event)) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel(); browser.stop() }
        }
    }

    static func map(_ event: CastDiscovery.DiscoveryEvent) -> DiscoveryEvent {
        switch event {
        case .added(let d): return .found(info(d))
        case .updated(let d): return .updated(info(d))
        case .removed(let d): return .lost(id: d.id)
        case .unavailable(let error): return .unavailable(reason: error.description)
        case .browsing: return .browsing
        }
    }

    static func info(_ d: CastDevice) -> DeviceInfo {
        DeviceInfo(id: d.id, friendlyName: d.friendlyName, model: d.model ?? "", host: d.host, port: d.port,
                   statusText: d.statusText, isGroup: d.isGroup, isBusy: d.isBusy, origin: .discovered)
    }
}
