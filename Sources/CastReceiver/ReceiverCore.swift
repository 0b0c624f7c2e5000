// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import Foundation
import Logging
import NIOCore

/// The receiver's brain: the platform (receiver-0), the running app with its media player,
/// every sender socket, and who hears about which change. Everything here runs on one
/// event loop (`loop`), so no state needs a lock.
final class ReceiverCore: @unchecked Sendable {
    /// The namespace of the simulator's test hooks (see docs/receiver.md).
    static let controlNamespace = "urn:x-cast:io.github.castdeck.simulator"

    struct RunningApp {
        var app: ReceiverApp
        var sessionId: String
        var transportId: String
        var player = MediaPlayer()
    }

    let loop: any EventLoop
    let config: ReceiverConfiguration
    var logger: Logger
    let apps: [String: ReceiverApp]
    var connections: [ObjectIdentifier: SenderConnection] = [:]
    var nextConnectionId = 1
    var volume: Volume
    var running: RunningApp?
    /// The input and power state a TV or projector reports (ReceiverCore+Kinds.swift).
    var isActiveInput = true
    var isStandBy = false
    /// Since when (receiver clock) the running app has played nothing: ambient mode and a
    /// hub's idle timeout count from here (ReceiverCore+Kinds.swift).
    var quietSince: Double?
    /// The idle screen's session id, the same while the device runs.
    let idleScreenSession = UUID().uuidString
    var malformedSent = false
    /// The `preloadedItemId` of the last MEDIA_STATUS sent: a tick that changes it sends a new one.
    var announcedPreloadedItemId: Int?
    var ticker: RepeatedTask?
    /// DER of the TLS certificate senders see; deviceauth answers sign it (ReceiverCore+Auth.swift).
    var tlsCertificateDER: [UInt8] = []
    /// Leader or member of a simulated speaker group (ReceiverCore+Group.swift).
    var groupRole: GroupRole?
    /// The Cast Streaming session of a mirroring app, and how many there were (ReceiverCore+Mirroring.swift).
    var mirroring: Mirroring?
    var mirrorSessions = 0

    init(loop: any EventLoop, config: ReceiverConfiguration) {
        self.loop = loop
        self.config = config
        self.logger = config.logger
        self.volume = config.kind?.volume ?? Volume(level: 1, muted: false, controlType: "attenuation", stepInterval: 0.05)
        var apps = [CastAppID.defaultMediaReceiver: ReceiverApp.defaultMediaReceiver]
        for app in config.apps { apps[app.appId] = app }
        self.apps = apps
    }

    var now: Double { config.clock.now }
    var connectionCount: Int { connections.count }

    // MARK: - Lifecycle

    func startTicking() {
        loop.assertInEventLoop()
        guard config.manualClock == nil else { return }
        let interval = TimeAmount.of(config.tickInterval)
        ticker = loop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { [weak self] _ in
            self?.tick()
        }
    }

    func shutdown() {
        loop.assertInEventLoop()
        ticker?.cancel()
        ticker = nil
        endMirroring()
        for c in connections.values {
            c.heartbeat?.cancel()
            c.channel.close(promise: nil)
        }
    }

    /// Re-evaluates playback at the clock's current time and tells every sender of the app
    /// what changed (breaks starting or ending, media finishing).
    func tick() {
        loop.assertInEventLoop()
        guard !followsLeader, var app = running else { return }
        let changed = app.player.advance(to: now)
        let changes = app.player.takeQueueChanges()
        running = app
        broadcastQueueChanges(changes)
        // Entering the next item's preload window is news too (the status then carries it).
        if changed || app.player.preloadedItemId(at: now) != announcedPreloadedItemId { broadcastMediaStatus(app.player.status(at: now)) }
        followQuiet()
    }
}

extension TimeAmount {
    static func of(_ d: Duration) -> TimeAmount {
        .nanoseconds(d.components.seconds * 1_000_000_000 + d.components.attoseconds / 1_000_000_000)
    }
}
