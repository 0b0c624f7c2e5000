// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import Foundation
import Logging

/// Everything that shapes one simulated receiver. All fields have working defaults.
public struct ReceiverConfiguration: Sendable {
    /// Address to bind; loopback by default.
    public var host: String = "127.0.0.1"
    /// TCP port; 0 lets the system pick a free one (read it back from ``CastReceiverServer/port``).
    public var port: Int = 8009
    /// Where `/setup/eureka_info` (name, model) is served over HTTP, as a device does on 8008;
    /// nil: not served.
    public var setupPort: Int?
    /// The friendly name senders show.
    public var friendlyName: String = "CastDeck Simulator"
    /// The device UUID (32 hex digits; dashes allowed).
    public var uuid: String = UUID().uuidString.lowercased()
    /// The model name.
    public var model: String = "Chromecast"
    /// Extra receiver apps besides the Default Media Receiver, each with the namespaces it accepts.
    public var apps: [ReceiverApp] = []
    /// Fault injection for tests of senders; all off by default.
    public var faults: FaultInjection = FaultInjection()
    /// Credentials and faults for deviceauth challenges; nil = answer AuthError (no credentials).
    public var deviceAuth: DeviceAuthSimulation?
    /// What MEDIA_STATUS says the player supports (`supportedMediaCommands`). Fewer than the
    /// default imitates a receiver that cannot, say, change the rate; requests are still served.
    public var supportedMediaCommands: MediaCommands = MediaPlayer.supportedCommands.subtracting(MediaPlayer.userActionCommands)
    /// The receiver's own heartbeat policy.
    public var heartbeat: HeartbeatPolicy = HeartbeatPolicy()
    /// The time base of playback. ``SystemClock`` by default; ``ManualClock`` in tests.
    public var clock: any ReceiverClock = SystemClock()
    /// How often playback is re-evaluated on a real clock (ad breaks, end of media).
    public var tickInterval: Duration = .milliseconds(100)
    /// Fetch the media and text tracks of every LOAD as a device does, and fail the LOAD
    /// (LOAD_FAILED + detailedErrorCode) when they are unreachable, unplayable or lack CORS
    /// (ReceiverCore+Fetch.swift). Off by default: tests with made-up URLs keep working.
    public var fetchMedia: Bool = false
    /// With `fetchMedia`: an AV receiver on the device's HDMI decodes AC-3 and E-AC-3, so
    /// media carrying them is played (passed through) rather than refused.
    public var avReceiver: Bool = false
    /// With `fetchMedia`: ffmpeg also decodes the media's first frame before the LOAD is
    /// answered, as a device's decoder must, and the fetch and decode times are logged at
    /// `.notice` (the `play` benchmark reads them). Needs ffmpeg.
    public var decodeFirstFrame: Bool = false
    /// A LIVE stream's replay window in seconds: its `liveSeekableRange` spans the last this many
    /// seconds before the live edge, moving with the clock. 0: no window (live radio, no seeking).
    public var liveWindow: Double = 120
    /// Where the receiver logs. Every message in and out is logged at `.debug`.
    public var logger: Logger = Logger(label: "castdeck.receiver")
    /// Test hook: answer with messages recorded from a real device (ReceiverCore+Replay.swift).
    public var replay: ReplayScript?
    /// What kind of device this pretends to be (ReceiverKind.swift): volume control, the idle
    /// screen, the input a TV shows, the apps it runs. nil: the plain simulator of old
    /// (attenuation volume, no idle screen, always the active input).
    public var kind: ReceiverKind?
    /// Ambient mode: the running app is torn down once its media has been paused this many
    /// seconds (receiver clock), as a Chromecast does; nil: never.
    public var ambientAfter: Double?
    /// A hub's idle timeout: the running app is closed once nothing has played for this many
    /// seconds (nothing loaded, finished or stopped); nil: never. A Nest Hub kind sets 600.
    public var idleTimeout: Double?
    /// The test hooks' namespace (docs/receiver.md) also on a real clock; with a ManualClock it
    /// is always there.
    public var testHooks: Bool = false
    /// Cast Streaming (docs/mirroring.md): the directory the mirroring apps' received and
    /// decoded frames are written to (`MirrorFrameSink`); nil: frames are received, not kept.
    public var mirrorOutput: String?
    /// The codecs the mirroring receiver takes (`StreamingReceiver.playable` by default); fewer
    /// make it answer as a device that plays less, e.g. pictures without sound.
    public var mirrorCodecs: Set<String>?

    public init() {}

    /// The clock, when it is a ``ManualClock`` (test mode).
    public var manualClock: ManualClock? { clock as? ManualClock }
}

/// A receiver app the simulator can launch.
public struct ReceiverApp: Sendable, Hashable {
    /// 8 hex characters, e.g. `CC1AD845`.
    public var appId: String
    public var displayName: String
    /// Full namespace URNs (`urn:x-cast:…`) the app accepts.
    public var namespaces: [String]
    /// What RECEIVER_STATUS says of it besides its name (the real apps' values: ForeignApps.swift).
    public var iconUrl: String = ""
    public var appType: String?
    public var universalAppId: String?
    /// The app's status text; nil: its display name.
    public var statusText: String?
    /// What its MEDIA_STATUS announces (`supportedMediaCommands`); nil: the receiver's own.
    public var supportedMediaCommands: MediaCommands?

    public init(appId: String, displayName: String? = nil, namespaces: [String]) {
        self.appId = appId.uppercased()
        self.displayName = displayName ?? "App \(appId.uppercased())"
        self.namespaces = namespaces
    }

    /// Google's Default Media Receiver, as the simulator hosts it.
    public static let defaultMediaReceiver = ReceiverApp(
        appId: CastAppID.defaultMediaReceiver, displayName: "Default Media Receiver",
        namespaces: [
            "urn:x-cast:com.google.cast.debugoverlay", "urn:x-cast:com.google.cast.cac", CastNamespace.mediaURN,
        ])

    /// The helloworld sample namespace: the simulator echoes every message on it back to its sender.
    public static let helloWorldNamespace = "urn:x-cast:com.google.cast.sample.helloworld"

    /// Parses the `--app` syntax `APPID=urn:x-cast:ns1,urn:x-cast:ns2`.
    public static func parse(_ text: String) throws(CastReceiverError) -> ReceiverApp {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw .invalidAppSpec(text, reason: "expected APPID=urn:x-cast:ns1,urn:x-cast:ns2") }
        let id = parts[0]
        guard id.count == 8, id.allSatisfy(\.isHexDigit) else {
            throw .invalidAppSpec(text, reason: "the app id must be 8 hexadecimal characters")
        }
        let namespaces = parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !namespaces.isEmpty else { throw .invalidAppSpec(text, reason: "list at least one namespace") }
        for ns in namespaces {
            do {
                _ = try CastNamespace.validatedCustom(ns)
            } catch {
                throw .invalidAppSpec(text, reason: error.description)
            }
        }
        return ReceiverApp(appId: id, namespaces: namespaces)
    }
}

/// Faults a test can switch on to see how a sender copes. Each is off when nil/false.
public struct FaultInjection: Sendable, Hashable {
    /// Stop answering PINGs this long after a connection opens.
    public var stopPongsAfter: Duration?
    /// Close a connection right after it has delivered this many messages.
    public var closeAfterMessages: Int?
    /// Hold every message the receiver sends for this long.
    public var replyDelay: Duration?
    /// Send one malformed MEDIA_STATUS (with `requestId` 0, just before the first real one).
    public var malformedMediaStatusOnce: Bool = false

    public init(stopPongsAfter: Duration? = nil, closeAfterMessages: Int? = nil, replyDelay: Duration? = nil, malformedMediaStatusOnce: Bool = false) {
        self.stopPongsAfter = stopPongsAfter
        self.closeAfterMessages = closeAfterMessages
        self.replyDelay = replyDelay
        self.malformedMediaStatusOnce = malformedMediaStatusOnce
    }
}

/// The receiver's side of the heartbeat: it PINGs a sender that has been quiet for
/// `interval` and drops one that has said nothing for `timeout` (Chromium's 5 s / 10 s).
public struct HeartbeatPolicy: Sendable, Hashable {
    public var interval: Duration = .seconds(5)
    public var timeout: Duration = .seconds(10)
    public init(interval: Duration = .seconds(5), timeout: Duration = .seconds(10)) {
        self.interval = interval
        self.timeout = timeout
    }
}

/// What can go wrong when starting or driving the simulator.
public enum CastReceiverError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An `--app` value that is not `APPID=urn:x-cast:ns1,...`.
    case invalidAppSpec(String, reason: String)
    /// The address could not be bound (in use, not local, ...).
    case bindFailed(host: String, port: Int, reason: String)
    /// The TLS certificate or context could not be made.
    case tlsSetupFailed(reason: String)
    /// ``CastReceiverServer/advanceClock(by:)`` needs a ``ManualClock``.
    case clockNotManual
    /// The server is not running (never started, or stopped).
    case notRunning
    /// The deviceauth credentials directory (`--auth-ca`) could not be read or created.
    case authSetupFailed(directory: String, reason: String)

    public var description: String {
        switch self {
        case .invalidAppSpec(let text, let reason): "“\(text)” is not a valid --app value: \(reason)."
        case .bindFailed(let host, let port, let reason): "Cannot listen on \(host):\(port): \(reason)."
        case .tlsSetupFailed(let reason): "Cannot set up TLS for the simulated receiver: \(reason)."
        case .clockNotManual: "The receiver runs on real time; start it with a ManualClock (--clock manual) to advance time."
        case .notRunning: "The simulated receiver is not running."
        case .authSetupFailed(let d, let r): "Cannot use \(d) for device-auth credentials: \(r). Pass a writable directory, or delete it to start afresh."
        }
    }
}
