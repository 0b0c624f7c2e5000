import CastProtocol

/// A Cast device as the window lists it.
public struct DeviceInfo: Hashable, Sendable, Identifiable {
    public enum Origin: Hashable, Sendable { case discovered, added, demo }

    public var id: String
    public var friendlyName: String
    public var model: String
    public var host: String
    public var port: Int
    /// The receiver's status text, e.g. "Now playing Big Buck Bunny".
    public var statusText: String?
    /// A speaker group (cast groups announce themselves with a group model).
    public var isGroup: Bool
    /// True when another sender's application is running there (it can be joined).
    public var isBusy: Bool
    public var origin: Origin

    public init(id: String, friendlyName: String, model: String, host: String, port: Int,
                statusText: String? = nil, isGroup: Bool = false, isBusy: Bool = false, origin: Origin) {
        self.id = id; self.friendlyName = friendlyName; self.model = model; self.host = host
        self.port = port; self.statusText = statusText; self.isGroup = isGroup; self.isBusy = isBusy
        self.origin = origin
    }
}

/// What the device browser reports.
public enum DiscoveryEvent: Sendable {
    case found(DeviceInfo)
    case updated(DeviceInfo)
    case lost(id: String)
    /// Browsing cannot run, with a sentence saying why (e.g. Avahi is not running).
    case unavailable(reason: String)
    case browsing
}

/// The source of discovered devices (CastDiscovery behind it).
public protocol DeviceBrowser: Sendable {
    func events() -> AsyncStream<DiscoveryEvent>
}

/// One connected receiver session: the commands the window sends and the statuses it renders.
/// (CastClient's session + RemoteMediaClient behind it.)
public protocol CastSessionHandle: AnyObject, Sendable {
    /// Every media status the receiver sends (nil when no media session exists), newest last.
    func mediaStatuses() -> AsyncStream<MediaStatus?>
    func load(_ media: MediaInformation, autoplay: Bool, activeTrackIds: [Int]?) async throws
    func play() async throws
    func pause() async throws
    func seek(to seconds: Double) async throws
    func setPlaybackRate(_ rate: Double) async throws
    func setActiveTracks(_ ids: [Int]) async throws
    func setTextTrackStyle(_ style: TextTrackStyle) async throws
    func skipAd() async throws
    func setVolume(_ level: Double) async throws
    func setMuted(_ muted: Bool) async throws
    func stopMedia() async throws
    /// Leaves the session (the receiver app keeps running for other senders).
    func disconnect() async
}

/// Opens sessions (launch the Default Media Receiver, or join the app that runs there).
public protocol CastConnector: Sendable {
    func connect(to device: DeviceInfo) async throws -> any CastSessionHandle
}

/// Resolves artwork to a local image file (ImageCache behind it).
public protocol ArtworkProvider: Sendable {
    func localPath(for images: [CastImage], width: Int) async -> String?
}

/// Takes file:// URLs and absolute paths as they are; anything else needs ImageCache.
public struct LocalArtworkProvider: ArtworkProvider {
    public init() {}
    public func localPath(for images: [CastImage], width: Int) async -> String? {
        let best = images.min { abs(($0.width ?? width) - width) < abs(($1.width ?? width) - width) }
        guard let url = best?.url else { return nil }
        if url.hasPrefix("file://") { return String(url.dropFirst("file://".count)) }
        if url.hasPrefix("/") { return url }
        return nil
    }
}

/// Where "Use as default" stores the subtitle style (GSettings in the app).
@MainActor
public protocol StylePreferences: AnyObject {
    var defaultTextTrackStyle: TextTrackStyle? { get set }
}

public final class MemoryStylePreferences: StylePreferences {
    public var defaultTextTrackStyle: TextTrackStyle?
    public init(_ style: TextTrackStyle? = nil) { defaultTextTrackStyle = style }
}
