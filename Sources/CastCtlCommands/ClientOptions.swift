// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient
import CastDiscovery
import CastProtocol
import Foundation
import Logging

/// The options every device subcommand takes: --device, --json, --timeout, -v.
struct ClientOptions: ParsableArguments {
    @OptionGroup var target: DeviceOption

    @Flag(name: .long, help: "Print machine-readable JSON.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for each answer from the device.", valueName: "SECONDS"))
    var timeout: Double = 10

    @Flag(name: .customShort("v"), help: "Trace every protocol message on stderr.")
    var verbose = false

    @OptionGroup var auth: AuthOptions

    func validate() throws {
        guard timeout.isFinite, timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds.") }
    }

    /// Runs `body` with a session on the chosen device, reporting any error as one line and exit 1.
    /// - Parameter networkThread: run the session on a network thread (see
    ///   `withNetworkThreadExecution`): each answer resumes the command on the thread that
    ///   read it. Commands that write output or do blocking work while the session is open
    ///   (`watch`, casting local files) pass false, so a slow reader or a probe of a file
    ///   never holds up the connection's traffic.
    func withSession<T: Sendable>(
        reconnect: Bool = false, networkThread: Bool = true,
        _ body: (CastSession) async throws -> T
    ) async throws -> T {
        if networkThread {
            return try await withNetworkThreadExecution { () async throws -> T in
                try await runSession(reconnect: reconnect, body)
            }
        }
        return try await runSession(reconnect: reconnect, body)
    }

    private func runSession<T: Sendable>(reconnect: Bool, _ body: (CastSession) async throws -> T) async throws -> T {
        Self.bootstrapLogging(verbose: verbose)
        let device = try await target.resolve()
        let configuration = try makeConfiguration(reconnect: reconnect)
        // A device named by its id or friendly name is looked up again before each reconnect
        // attempt: it may come back on another address or port.
        let query = device.byName ? target.text : nil
        let session = CastSession(
            device: device.address, deviceID: device.id, configuration: configuration,
            locate: query.map { q in
                { @Sendable in
                    (try? await CastDiscovery.resolveDevice(q, timeout: .seconds(2)))
                        .map { DeviceAddress(host: $0.host, port: $0.port) }
                }
            })
        do {
            let result = try await body(session)
            await session.disconnect()
            return result
        } catch let error as CastClientError {
            await session.disconnect()
            throw CommandFailure(error.description)
        } catch {
            await session.disconnect()
            throw error
        }
    }

    /// The client configuration these options ask for (timeouts, trust, logging); a command
    /// that opens a second session (`move`) uses it too.
    func makeConfiguration(reconnect: Bool = false) throws -> CastClientConfiguration {
        var configuration = CastClientConfiguration()
        configuration.requestTimeout = .milliseconds(Int64(timeout * 1000))
        configuration.connectTimeout = .milliseconds(Int64(timeout * 1000))
        configuration.reconnect =
            reconnect
            ? configuration.reconnect.applying(environment: ProcessInfo.processInfo.environment) : .disabled
        var logger = Logger(label: "castctl.protocol")
        logger.logLevel = verbose ? .trace : .warning
        configuration.logger = logger
        try auth.apply(to: &configuration, timeout: timeout)
        return configuration
    }

    /// Joins the app running on the device, or fails with a hint to cast something.
    func joinMedia(_ session: CastSession) async throws {
        do {
            try await session.join()
        } catch CastClientError.noRunningApp(let d) {
            throw CommandFailure("Nothing is playing on \(d): start something with `castctl cast URL`.")
        }
        if await session.media.status == nil { throw CommandFailure(CastClientError.noMediaSession.description) }
    }

    private nonisolated(unsafe) static var bootstrapped = false
    static func bootstrapLogging(verbose: Bool) {
        guard !bootstrapped else { return }
        bootstrapped = true
        LoggingSystem.bootstrap { label in
            StandardErrorLogHandler(label: label, logLevel: verbose ? .trace : .warning)
        }
    }

    // MARK: output

    func emit<T: Encodable>(json value: T, text: @autoclosure () -> String) {
        if json {
            print(Output.json(value))
        } else {
            let t = text()
            if !t.isEmpty { print(Output.terminalSafe(t)) }
        }
    }
}

/// Formatting shared by the subcommands.
enum Output {
    /// Text a device sent (titles, app names), made safe for a terminal: control characters
    /// (which can move the cursor or retitle the window) and the bidi controls that reorder
    /// the rest of a line (U+202A–U+202E, U+2066–U+2069, U+200E/U+200F, U+061C) are written
    /// as `\u{…}`. Line breaks between our own lines stay. `--json` keeps everything exact.
    static func terminalSafe(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let v = scalar.value
            let control = (v < 0x20 && v != 0x0A && v != 0x09) || (0x7F...0x9F).contains(v)
            let bidi = (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F || v == 0x061C
            if control || bidi {
                out.append(contentsOf: "\\u{\(String(v, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Sorted keys, slashes as they are: what JSONEncoder wrote, byte for byte, written by
    /// CastProtocol's writer (JSONEncoder's generic code was 3 % of `castctl status --json`).
    static func json<T: Encodable>(_ value: T) -> String {
        CastJSON.encode(value)
    }

    static func seconds(_ s: Double?) -> String {
        guard let s, s.isFinite else { return "--:--" }
        return clockText(s)
    }

    /// A volume level (0…1) as "40 %"; what a device sends outside 0…1 is shown as it is, not trusted to fit an Int.
    static func percent(_ level: Double) -> String {
        guard level.isFinite, abs(level) < 1e12 else { return "\(level * 100) %" }
        return "\(Int((level * 100).rounded())) %"
    }

    static func number(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(format: "%g", d)
    }

    /// One line: state, position/duration, rate, title.
    static func mediaLine(_ status: MediaStatus?, position: Double?, breakClipTime: Double? = nil, live: LivePlayback? = nil) -> String {
        guard let status else { return "No media loaded." }
        var parts = [status.playerState.rawValue]
        if status.playerState == .idle, let r = status.idleReason { parts[0] += " (\(r.rawValue))" }
        if let live, status.playerState != .idle {
            parts.append(liveTime(live))  // LiveOutput.swift
        } else {
            parts.append("\(seconds(position ?? status.currentTime)) / \(seconds(status.effectiveMedia?.duration))")
        }
        if let rate = status.playbackRate, rate != 1 { parts.append("×\(number(rate))") }
        if let b = status.breakStatus {
            parts.append("ad \(b.breakClipId ?? b.breakId ?? "?") \(seconds(breakClipTime ?? b.currentBreakClipTime))")
        }
        if let title = status.effectiveMedia?.metadata?.displayTitle { parts.append("“\(title)”") }
        return parts.joined(separator: "  ")
    }
}

/// What `status`, `watch` and the media commands print with --json.
struct StatusReport: Encodable {
    var device: String
    var state: String
    var session: SessionInfo?
    var receiver: ReceiverStatus?
    var media: MediaStatus?
    /// Interpolated position in seconds.
    var position: Double?
    /// Seconds into the playing ad clip, interpolated (nil outside a break).
    var breakClipTime: Double?
    /// A live stream's facts (nil for other media).
    var live: LiveReport?
    /// The ad playing, as the window shows it (nil outside a break).
    var ad: AdPlayback?
    var authentication: AuthenticationReport
    /// The speaker group's members, when the device reported them (multizone).
    var group: GroupReport?

    /// The session's state at `now`; positions follow CastClient's one rule (MediaStatusSnapshot),
    /// the same the window shows.
    init(device: String, session: CastSession, info: SessionInfo?, at now: ContinuousClock.Instant = .now) async {
        self.device = device
        self.state = session.state.description
        self.session = info
        self.receiver = await session.receiverStatus
        let snapshot = await session.media.snapshot
        self.media = snapshot.status
        self.position = snapshot.streamPosition(at: now)
        self.breakClipTime = snapshot.breakClipTime(at: now)
        self.liveFacts = snapshot.live(at: now)
        self.live = liveFacts.map(LiveReport.init)
        self.ad = snapshot.ad(at: now)
        self.authentication = AuthenticationReport(session.authentication)
        self.group = session.group.map(GroupReport.init)
    }

    /// The one-line summary of the media.
    var mediaLine: String { Output.mediaLine(media, position: position, breakClipTime: breakClipTime, live: liveFacts) }
    private var liveFacts: LivePlayback?

    private enum CodingKeys: String, CodingKey {
        case device, state, session, receiver, media, position, breakClipTime, live, authentication, group
    }
}
