// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastProtocol
import GLibInterop

/// CastDeck on the session bus as an MPRIS media player (org.mpris.MediaPlayer2.CastDeck):
/// GNOME Shell's media card, the lock screen, media keys (gsd-media-keys), KDE's widget and
/// playerctl see the active session and control it.
///
///     AppModel ──observe──▶ property values ──diff──▶ PropertiesChanged (once per change)
///         │                 SeekDetector ───────────▶ Seeked (any jump, any sender)
///         ◀── AppModel.perform(AppAction) ◀── Play, Pause, Seek, Rate, Volume, LoopStatus, Shuffle …
///
/// Commands go through AppModel's command table (`AppModel.isEnabled`/`perform`) like buttons
/// and keys; the Can* properties are the same table's enabled rules. Position is read on demand
/// (interpolated by CastClient's rule) and, as the specification says, never sent in
/// PropertiesChanged. castdeck, the composition root, builds the service on GApplication's bus
/// connection and gives it Raise and Quit; the window does not know it exists. While the window
/// mirrors the screen or the desktop's sound, that is the player (MPRIS+Mirror.swift): "Screen"
/// by the device, Playing, and only Stop, which ends mirroring.
@MainActor
public final class MPRISService: DBusObjectHandler {
    /// What the application does for the root interface.
    public struct Hooks {
        /// Shows the main window (from the mini player or the background).
        public var raise: @MainActor () -> Void
        public var quit: @MainActor () -> Void
        public init(raise: @escaping @MainActor () -> Void, quit: @escaping @MainActor () -> Void) {
            self.raise = raise
            self.quit = quit
        }
    }

    let model: AppModel
    let connection: DBusConnection
    let hooks: Hooks
    let desktopEntry: String
    let busName: String
    private var object: DBusObject?
    private var name: DBusName?
    private var token: ObservationToken?
    private var numbering = TrackNumbering()
    private var seeks = SeekDetector()
    var trackID = MPRIS.noTrack
    /// What the last PropertiesChanged (or registration) said, per property.
    private var published: [String: DBusValue] = [:]

    /// - Parameters:
    ///   - desktopEntry: the .desktop file's basename (the application id), so a media card can
    ///     activate CastDeck.
    public init(
        model: AppModel, connection: DBusConnection, hooks: Hooks, desktopEntry: String,
        busName: String = MPRIS.busName
    ) {
        self.model = model
        self.connection = connection
        self.hooks = hooks
        self.desktopEntry = desktopEntry
        self.busName = busName
    }

    /// Exports the object and owns the bus name. Throws when the object cannot be exported.
    public func start() throws {
        guard object == nil else { return }
        object = try DBusObject(
            connection: connection, path: MPRIS.objectPath,
            introspectionXML: Self.introspection, handler: self)
        token = observe { [unowned self] in self.modelChanged() }
        name = DBusName(busName, on: connection)
    }

    /// Leaves the bus: the name first (clients forget the player), then the object.
    public func stop() {
        name?.release()
        name = nil
        token?.cancel()
        token = nil
        object?.unregister()
        object = nil
    }

    public var isRunning: Bool { object != nil }

    // MARK: following the model

    /// Reads everything MPRIS publishes (so `observe` re-runs on any change), then tells the bus
    /// what changed: Seeked for a position jump, one PropertiesChanged for the rest.
    func modelChanged() {
        let snapshot = model.snapshot
        let status = snapshot?.status
        // Mirroring, while it runs, is what this computer plays (MPRIS+Mirror.swift).
        let mirroring = model.mirroring
        trackID = numbering.trackID(for: mirroring.map(MPRIS.mirrorTrackKey) ?? (model.hasMedia ? MPRIS.adTrackKey(status) : nil))
        let jumped = seeks.update(snapshot, at: .now)
        let values = playerProperties()
        var changed: [(String, DBusValue)] = []
        for (key, value) in values where published[key] != value {
            changed.append((key, value))
            published[key] = value
        }
        if let object {
            object.propertiesChanged(interface: MPRIS.playerInterface, changed: changed)
            if let jumped {
                object.emit(interface: MPRIS.playerInterface, signal: "Seeked", arguments: [.int64(MPRIS.microseconds(jumped))])
            }
        }
    }

    /// Every Player property but Position, in a fixed order.
    func playerProperties() -> [(String, DBusValue)] {
        if let mirroring = model.mirroring { return mirrorProperties(mirroring) }
        let media = model.hasMedia
        let rateChangeable = model.isEnabled(.setRate)
        return [
            ("PlaybackStatus", .string(media ? MPRIS.playbackStatus(model.mediaStatus?.playerState) : "Stopped")),
            ("Rate", .double(media ? model.playbackRate : 1)),
            ("MinimumRate", .double(rateChangeable ? MPRIS.minimumRate : 1)),
            ("MaximumRate", .double(rateChangeable ? MPRIS.maximumRate : 1)),
            ("Metadata", .dictionary(currentMetadata(hasMedia: media))),  // MPRIS+Ads.swift
            ("Volume", .double(volume)),
            ("LoopStatus", .string(MPRIS.loopStatus(model.queue.repeatMode))),
            ("Shuffle", .bool(model.queue.repeatMode == .allAndShuffle)),
            ("CanGoNext", .bool(model.isEnabled(.queueNext))),
            ("CanGoPrevious", .bool(model.isEnabled(.queuePrev))),
            ("CanPlay", .bool(media)),
            ("CanPause", .bool(media && model.supports(.pause))),
            ("CanSeek", .bool(model.isEnabled(.seekTo))),
            ("CanControl", .bool(true)),
        ]
    }

    /// MPRIS Volume: the model's volume (what the window's volume slider controls).
    var volume: Double { model.hasMedia ? model.volumeLevel : 1 }

    // MARK: DBusObjectHandler

    public func property(interface: String, name: String) -> DBusValue? {
        if interface == MPRIS.rootInterface {
            switch name {
            case "Identity": return .string("CastDeck")
            case "DesktopEntry": return .string(desktopEntry)
            case "CanRaise", "CanQuit": return .bool(true)
            case "CanSetFullscreen", "Fullscreen", "HasTrackList": return .bool(false)
            case "SupportedUriSchemes": return .strings(MPRIS.uriSchemes)
            case "SupportedMimeTypes": return .strings(MPRIS.mimeTypes)
            default: return nil
            }
        }
        if name == "Position" { return .int64(MPRIS.microseconds(model.isMirroring ? 0 : currentPosition)) }
        return playerProperties().first { $0.0 == name }?.1
    }

    public func setProperty(interface: String, name: String, value: DBusValue) -> Result<Void, DBusError> {
        switch (interface, name) {
        case (MPRIS.playerInterface, "Rate"):
            guard let rate = value.doubleValue, rate.isFinite else { return .failure(.invalidArgs("Rate must be a number")) }
            // Rate 0 means pause (MPRIS); other rates are kept inside what the receiver offers.
            if rate == 0 {
                send(.pause)
                return .success(())
            }
            guard model.isEnabled(.setRate) else { return .success(()) }
            send(.setRate(min(MPRIS.maximumRate, max(MPRIS.minimumRate, rate))))
            return .success(())
        case (MPRIS.playerInterface, "Volume"):
            guard let level = value.doubleValue, level.isFinite else { return .failure(.invalidArgs("Volume must be a number")) }
            send(.setVolume(min(1, max(0, level))))
            return .success(())
        case (MPRIS.playerInterface, "LoopStatus"):
            // Through the command table, as the window's Repeat button; ignored without a queue.
            guard let status = value.stringValue,
                let mode = MPRIS.repeatMode(loopStatus: status, shuffled: model.queue.repeatMode == .allAndShuffle)
            else { return .failure(.invalidArgs("LoopStatus must be None, Track or Playlist")) }
            if let i = AppModel.repeatModes.firstIndex(of: mode) { send(AppAction(.setRepeatMode, .int(i))) }
            return .success(())
        case (MPRIS.playerInterface, "Shuffle"):
            guard let on = value.boolValue else { return .failure(.invalidArgs("Shuffle must be true or false")) }
            if on != (model.queue.repeatMode == .allAndShuffle) { send(.toggleShuffle) }
            return .success(())
        case (MPRIS.rootInterface, "Fullscreen"):
            return .success(())
        default:
            return .failure(.invalidArgs("\(name) cannot be set"))
        }
    }

    public func call(interface: String, method: String, arguments: [DBusValue], sender: String?) -> Result<[DBusValue], DBusError> {
        if mirrorCall(method) { return .success([]) }
        switch method {
        case "Raise": hooks.raise()
        case "Quit": hooks.quit()
        case "Play": send(model.isPlaying ? nil : .play)
        case "Pause": send(.pause)
        case "PlayPause": send(.togglePlayPause)
        case "Stop": send(.stopCasting)
        case "Next": send(.queueNext)
        case "Previous": send(.queuePrev)
        case "Seek":
            guard let offset = arguments.first?.int64Value else { return .failure(.invalidArgs("Seek needs an offset in microseconds")) }
            if offset != 0 { send(.seekBy(Double(offset) / 1_000_000)) }
        case "SetPosition":
            guard arguments.count == 2, let track = arguments[0].stringValue, let at = arguments[1].int64Value else {
                return .failure(.invalidArgs("SetPosition needs a track id and a position in microseconds"))
            }
            // The specification: ignored when the track is not the current one or the position
            // is outside it.
            let seconds = Double(at) / 1_000_000
            // A live stream's position is inside its seekable window (AppModel+Live.swift).
            if track == trackID, model.seekableRange?.contains(seconds) == true { send(.seekTo(seconds)) }
        case "OpenUri":
            guard let uri = arguments.first?.stringValue else { return .failure(.invalidArgs("OpenUri needs a URI")) }
            return openURI(uri)
        default:
            return .failure(DBusError(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "No method \(method)"))
        }
        return .success([])
    }

    /// file:// URIs are cast like files chosen in the window; http(s) URLs are loaded by the device.
    func openURI(_ uri: String) -> Result<[DBusValue], DBusError> {
        let lower = uri.lowercased()
        if lower.hasPrefix("file://") {
            Task { await model.castFiles([uri]) }
            return .success([])
        }
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            return .failure(.invalidArgs("CastDeck opens http, https and file URIs, not \(uri)"))
        }
        guard model.isConnected else { return .failure(.failed("CastDeck is not connected to a Cast device")) }
        let media = MediaInformation(contentId: uri, contentUrl: uri, streamType: .buffered, contentType: Self.guessType(uri))
        Task { await model.load(media) }
        return .success([])
    }

    static func guessType(_ uri: String) -> String {
        let path = uri.split(separator: "?").first.map(String.init)?.lowercased() ?? ""
        let types: [(String, String)] = [
            (".m3u8", "application/x-mpegURL"), (".mpd", "application/dash+xml"),
            (".webm", "video/webm"), (".mp3", "audio/mpeg"), (".m4a", "audio/mp4"),
            (".flac", "audio/flac"), (".ogg", "audio/ogg"), (".jpg", "image/jpeg"),
            (".png", "image/png"),
        ]
        return types.first { path.hasSuffix($0.0) }?.1 ?? "video/mp4"
    }

    /// Every command through the command table, which drops what is not enabled now.
    private func send(_ action: AppAction?) {
        guard let action else { return }
        Task { await model.perform(action) }
    }

    private func send(_ name: AppAction.Name?) { send(name?.action()) }

    // MARK: introspection

    static let introspection = """
        <node>
          <interface name="org.mpris.MediaPlayer2">
            <method name="Raise"/>
            <method name="Quit"/>
            <property name="CanQuit" type="b" access="read"/>
            <property name="Fullscreen" type="b" access="readwrite"/>
            <property name="CanSetFullscreen" type="b" access="read"/>
            <property name="CanRaise" type="b" access="read"/>
            <property name="HasTrackList" type="b" access="read"/>
            <property name="Identity" type="s" access="read"/>
            <property name="DesktopEntry" type="s" access="read"/>
            <property name="SupportedUriSchemes" type="as" access="read"/>
            <property name="SupportedMimeTypes" type="as" access="read"/>
          </interface>
          <interface name="org.mpris.MediaPlayer2.Player">
            <method name="Next"/>
            <method name="Previous"/>
            <method name="Pause"/>
            <method name="PlayPause"/>
            <method name="Stop"/>
            <method name="Play"/>
            <method name="Seek"><arg direction="in" name="Offset" type="x"/></method>
            <method name="SetPosition">
              <arg direction="in" name="TrackId" type="o"/>
              <arg direction="in" name="Position" type="x"/>
            </method>
            <method name="OpenUri"><arg direction="in" name="Uri" type="s"/></method>
            <signal name="Seeked"><arg name="Position" type="x"/></signal>
            <property name="PlaybackStatus" type="s" access="read"/>
            <property name="Rate" type="d" access="readwrite"/>
            <property name="Metadata" type="a{sv}" access="read"/>
            <property name="Volume" type="d" access="readwrite"/>
            <property name="LoopStatus" type="s" access="readwrite"/>
            <property name="Shuffle" type="b" access="readwrite"/>
            <property name="Position" type="x" access="read">
              <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="false"/>
            </property>
            <property name="MinimumRate" type="d" access="read"/>
            <property name="MaximumRate" type="d" access="read"/>
            <property name="CanGoNext" type="b" access="read"/>
            <property name="CanGoPrevious" type="b" access="read"/>
            <property name="CanPlay" type="b" access="read"/>
            <property name="CanPause" type="b" access="read"/>
            <property name="CanSeek" type="b" access="read"/>
            <property name="CanControl" type="b" access="read">
              <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/>
            </property>
          </interface>
        </node>
        """
}
