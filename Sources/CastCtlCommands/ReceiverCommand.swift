// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import ArgumentParser
import CastClient
import CastReceiver
import Dispatch
import Foundation
import Logging

/// `castctl receiver`: run a simulated Cast receiver (see docs/receiver.md).
struct ReceiverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receiver",
        abstract: "Run a simulated Cast receiver (TLS, Default Media Receiver) that real senders can drive.",
        discussion: """
            Prints exactly one line, "listening on HOST:PORT", on stdout when ready; logs go to stderr.
            Stops cleanly on SIGINT or SIGTERM.
            """
    )

    enum ClockMode: String, ExpressibleByArgument, CaseIterable {
        case real, manual
    }

    @Option(help: "Address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "TCP port; 0 picks a free one.")
    var port: Int = 8009

    @Option(help: "Friendly name senders show (also served by the setup API).")
    var name: String = "CastDeck Simulator"

    @Option(
        name: .customLong("setup-port"),
        help: ArgumentHelp(
            "Serve /setup/eureka_info (name, model) over HTTP on this port, as a device does on 8008; 0 turns it off. Default: 8008 when --port is 8009, otherwise off.",
            valueName: "port"))
    var setupPort: Int?

    @Option(help: "Device UUID (32 hex digits, dashes allowed). Random by default.")
    var uuid: String?

    @Option(help: "Model name (default: the kind's, else Chromecast).")
    var model: String?

    @Option(
        name: .customLong("app"),
        help: ArgumentHelp(
            "An extra receiver app and the namespaces it accepts (repeatable).",
            valueName: "APPID=urn:x-cast:ns1,urn:x-cast:ns2"))
    var apps: [String] = []

    @Flag(help: "Publish the receiver over mDNS (_googlecast._tcp).")
    var announce = false

    @Option(
        help: ArgumentHelp(
            "Run a speaker group of this name: its leader on --port, and each of --members as a speaker on a port of its own (ReceiverCommand+Group.swift).",
            valueName: "NAME"))
    var group: String?

    @Option(help: ArgumentHelp("With --group: the names of the group's speakers, comma-separated.", valueName: "A,B,C"))
    var members: String?

    @Option(
        help: ArgumentHelp(
            "With --group: a host for each speaker, comma-separated, in the order of --members. Each then listens there on 8009 with its setup API on 8008, as a real speaker does, so that a sender given only its address learns its name.",
            valueName: "H1,H2,H3"))
    var memberHosts: String?

    @Option(
        name: .customLong("stop-pongs-after"),
        help: ArgumentHelp("Fault: stop answering PINGs this many seconds after a sender connects.", valueName: "seconds"))
    var stopPongsAfter: Double?

    @Option(name: .customLong("close-after"), help: ArgumentHelp("Fault: close a sender's socket after it has sent this many messages.", valueName: "messages"))
    var closeAfter: Int?

    @Option(name: .customLong("delay-replies"), help: ArgumentHelp("Fault: delay every message the receiver sends by this many milliseconds.", valueName: "ms"))
    var delayReplies: Int?

    @Flag(name: .customLong("malformed-media-status"), help: "Fault: send one malformed MEDIA_STATUS (requestId 0) before the first real one.")
    var malformedMediaStatus = false

    @Option(
        help: ArgumentHelp(
            "Test hook: 'manual' freezes playback time until a sender sends ADVANCE_CLOCK on urn:x-cast:io.github.castdeck.simulator.", visibility: .hidden))
    var clock: ClockMode = .real

    @Option(name: .customLong("heartbeat-interval"), help: ArgumentHelp("Seconds of sender silence before the receiver PINGs it.", visibility: .hidden))
    var heartbeatInterval: Double = 5

    @Option(name: .customLong("heartbeat-timeout"), help: ArgumentHelp("Seconds of sender silence before the receiver drops it.", visibility: .hidden))
    var heartbeatTimeout: Double = 10

    @Flag(
        name: .customLong("fetch-media"),
        help: "Fetch each LOAD's media and text tracks as a device does (Range, Origin, CORS, WEBVTT); LOAD_FAILED when they fail.")
    var fetchMedia = false

    @Flag(name: .customLong("av-receiver"), help: "With --fetch-media: an AV receiver on HDMI decodes AC-3/E-AC-3, so media with them plays.")
    var avReceiver = false

    @Flag(
        name: .customLong("first-frame"),
        help: ArgumentHelp(
            "With --fetch-media: decode each LOAD's first frame with ffmpeg before playing, and log how long fetching and decoding took.", visibility: .hidden))
    var firstFrame = false

    @Flag(name: .customLong("user-actions"), help: "Offer LIKE and DISLIKE (USER_ACTION), as music apps' receivers do.")
    var userActions = false

    @Option(
        name: .customLong("live-window"),
        help: ArgumentHelp("A LIVE stream's replay window: it can be seeked this far behind the live edge (0: not at all).", valueName: "SECONDS"))
    var liveWindow: Double = 120

    @Option(help: ArgumentHelp("What kind of device to be: its volume control, idle screen, input and apps (docs/receiver.md).", valueName: "kind"))
    var kind: ReceiverKind?

    @Option(
        name: .customLong("foreign-app"),
        help: ArgumentHelp(
            "Also run this app CastDeck cannot drive, as a phone would launch it: youtube, spotify or mirroring (repeatable).", valueName: "name"))
    var foreignApps: [String] = []

    @Option(
        name: .customLong("mirror-output"),
        help: ArgumentHelp(
            "Run the mirroring apps (Cast Streaming) and write what they receive and decode to this directory (docs/mirroring.md).",
            valueName: "dir"))
    var mirrorOutput: String?

    @Option(
        name: .customLong("mirror-codecs"),
        help: ArgumentHelp("With --mirror-output: take only streams of these codecs (comma-separated; default vp8,h264,opus).", valueName: "list"))
    var mirrorCodecs: String?

    @Option(
        name: .customLong("ambient-after"), help: ArgumentHelp("Ambient mode: close the app once its media has been paused this long.", valueName: "seconds"))
    var ambientAfter: Double?

    @Option(
        name: .customLong("idle-timeout"),
        help: ArgumentHelp("Close the app once nothing has played this long (a Nest Hub: 600).", valueName: "seconds"))
    var idleTimeout: Double?

    @Flag(name: .customLong("test-hooks"), help: ArgumentHelp("Test hook: take the simulator namespace's hooks on a real clock too.", visibility: .hidden))
    var testHooks = false

    @Flag(name: .shortAndLong, help: "Log every message in and out (stderr).")
    var verbose = false

    @Option(
        name: .customLong("replay-receiver"),
        help: ArgumentHelp(
            "Test hook: answer receiver GET_STATUS with this recorded RECEIVER_STATUS (JSON file); replay mode.", valueName: "file", visibility: .hidden))
    var replayReceiver: String?

    @Option(
        name: .customLong("replay-media"),
        help: ArgumentHelp(
            "Test hook: with --replay-receiver, answer media GET_STATUS with this recorded MEDIA_STATUS.", valueName: "file", visibility: .hidden))
    var replayMedia: String?

    @Option(
        name: .customLong("replay-message"),
        help: ArgumentHelp(
            "Test hook: with --replay-receiver, send this recorded message unasked after CONNECT (repeatable).", valueName: "namespace=file",
            visibility: .hidden))
    var replayMessages: [String] = []

    @OptionGroup var auth: ReceiverAuthOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        try validateGroup()
        if let uuid {
            let hex = uuid.replacingOccurrences(of: "-", with: "")
            guard hex.count == 32, hex.allSatisfy(\.isHexDigit) else {
                throw ValidationError("--uuid must be 32 hexadecimal digits (dashes allowed).")
            }
        }
        if let s = stopPongsAfter, !(s >= 0 && s.isFinite) { throw ValidationError("--stop-pongs-after must be a non-negative number of seconds.") }
        guard liveWindow >= 0, liveWindow <= 86_400 else { throw ValidationError("--live-window must be between 0 and 86400 seconds.") }
        if let n = closeAfter, n < 1 { throw ValidationError("--close-after must be at least 1.") }
        if let d = delayReplies, d < 0 { throw ValidationError("--delay-replies must not be negative.") }
        guard heartbeatInterval > 0, heartbeatTimeout > heartbeatInterval else {
            throw ValidationError("--heartbeat-timeout must be longer than --heartbeat-interval, both positive.")
        }
        for app in apps {
            do { _ = try ReceiverApp.parse(app) } catch { throw ValidationError(error.description) }
        }
        for name in foreignApps where ReceiverApp.foreign[name] == nil {
            throw ValidationError("--foreign-app takes one of \(ReceiverApp.foreign.keys.sorted().joined(separator: ", ")).")
        }
        for (name, value) in [("--ambient-after", ambientAfter), ("--idle-timeout", idleTimeout)] {
            if let value, !(value > 0 && value.isFinite) { throw ValidationError("\(name) must be a positive number of seconds.") }
        }
    }

    func run() async throws {
        let level: Logger.Level = verbose ? .trace : .notice
        LoggingSystem.bootstrap { label in StandardErrorLogHandler(label: label, logLevel: level) }
        var config = ReceiverConfiguration()
        config.host = host
        config.port = port
        config.friendlyName = name
        switch setupPort {
        case nil: config.setupPort = port == 8009 ? 8008 : nil
        case 0?: config.setupPort = nil
        case let p?:
            guard (1...65535).contains(p) else { throw ValidationError("--setup-port must be between 0 and 65535.") }
            config.setupPort = p
        }
        if let uuid { config.uuid = uuid.lowercased() }
        config.ambientAfter = ambientAfter
        config.idleTimeout = idleTimeout
        config.testHooks = testHooks
        // A kind names its model unless --model says otherwise.
        kind?.configure(&config)
        if let model { config.model = model }
        config.fetchMedia = fetchMedia || firstFrame
        config.avReceiver = avReceiver
        if userActions { config.supportedMediaCommands.formUnion([.like, .dislike]) }
        config.decodeFirstFrame = firstFrame
        config.liveWindow = liveWindow
        config.apps = try apps.map { try ReceiverApp.parse($0) } + foreignApps.compactMap { ReceiverApp.foreign[$0] }
        if let mirrorOutput {
            config.mirrorOutput = mirrorOutput
            config.apps += [ReceiverApp.chromeMirroring, ReceiverApp.audioMirroring]
            config.mirrorCodecs = mirrorCodecs.map { Set($0.lowercased().split(separator: ",").map { String($0) }) }
        }
        config.replay = try replayScript()
        config.faults = FaultInjection(
            stopPongsAfter: stopPongsAfter.map { .milliseconds(Int64($0 * 1000)) },
            closeAfterMessages: closeAfter,
            replyDelay: delayReplies.map { .milliseconds($0) },
            malformedMediaStatusOnce: malformedMediaStatus)
        config.heartbeat = HeartbeatPolicy(
            interval: .milliseconds(Int64(heartbeatInterval * 1000)), timeout: .milliseconds(Int64(heartbeatTimeout * 1000)))
        if clock == .manual { config.clock = ManualClock() }
        config.logger = Logger(label: "castdeck.receiver")
        config.deviceAuth = try auth.simulation()

        if let group {
            try await runGroup(named: group, leader: config)
            return
        }
        var announcer: (any ReceiverAnnouncer)?
        if announce {
            guard let a = ReceiverAnnouncerFactory.make() else {
                throw CommandFailure("announcing over mDNS is unavailable in this build (CastDiscovery is not linked); run without --announce")
            }
            announcer = a
        }

        let server = CastReceiverServer(configuration: config)
        do {
            try await server.start()
        } catch let error as CastReceiverError {
            throw CommandFailure(error.description)
        }
        let boundPort = server.port ?? port
        if let announcer {
            do {
                try await announcer.announce(
                    ReceiverAnnouncement(
                        friendlyName: name, uuid: config.uuid.replacingOccurrences(of: "-", with: ""), model: config.model,
                        host: host, port: boundPort, capabilities: kind?.capabilities))
            } catch {
                await server.stop()
                throw CommandFailure("could not announce the receiver over mDNS: \(error)")
            }
        }
        // Written straight to the file descriptor: scripts wait for this line.
        Console.out("listening on \(host):\(boundPort)\n")

        let signal = await Self.waitForTerminationSignal()
        config.logger.notice("stopping", metadata: ["signal": "\(signal)"])
        await announcer?.withdraw()
        await server.stop()
    }

    /// Suspends until SIGINT or SIGTERM arrives; returns its number.
    static func waitForTerminationSignal() async -> Int32 {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let queue = DispatchQueue(label: "castctl.signals")
        var sources: [any DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler { continuation.yield(sig) }
            source.resume()
            sources.append(source)
        }
        var received: Int32 = SIGTERM
        for await sig in stream {
            received = sig
            break
        }
        sources.forEach { $0.cancel() }
        return received
    }

    /// The recorded messages of --replay-*, read as they are (nil without --replay-receiver).
    private func replayScript() throws -> ReplayScript? {
        guard let replayReceiver else {
            if replayMedia != nil || !replayMessages.isEmpty { throw ValidationError("--replay-media and --replay-message need --replay-receiver.") }
            return nil
        }
        func read(_ path: String) throws -> String {
            do { return try String(contentsOfFile: path, encoding: .utf8) } catch {
                throw ValidationError("Could not read the recorded message \(path): \(error.localizedDescription)")
            }
        }
        let broadcasts = try replayMessages.map { spec -> (namespace: String, payload: String) in
            guard let eq = spec.firstIndex(of: "="), spec.hasPrefix("urn:x-cast:") else {
                throw ValidationError("--replay-message takes NAMESPACE=FILE, as urn:x-cast:com.google.cast.multizone=zone.json.")
            }
            return (String(spec[..<eq]), try read(String(spec[spec.index(after: eq)...])))
        }
        return ReplayScript(receiverStatus: try read(replayReceiver), mediaStatus: try replayMedia.map(read), broadcasts: broadcasts)
    }
}

extension ReceiverKind: ExpressibleByArgument {}
