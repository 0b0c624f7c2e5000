// SPDX-License-Identifier: GPL-3.0-or-later

import CastCore
import CastProtocol
import Foundation
import Logging

extension CastSession: NamespaceController {
    // MARK: incoming

    /// The session reads the receiver namespace (apps, volume) and the connection namespace
    /// (an app closing its virtual connection ends the session); as the link's fallback it
    /// also hears what could not be read.
    nonisolated var namespaces: [String] { [CastNamespace.receiverURN, CastNamespace.connectionURN] }

    func receive(_ message: InboundMessage, from link: CastConnection) {
        guard link === connection else { return }
        let raw = message.raw
        switch message.decoded {
        case .failure(let error):
            warningBroadcast.send(CastWarning(namespace: raw.namespace, problem: error))
        case .success(.receiver(.receiverStatus(let m))):
            receive(m.status)
            if let current = app {
                if let still = m.status.applications?.first(where: { $0.sessionId == current.sessionId }) {
                    if still != current {
                        app = still
                        updateChannels()
                        setState(.connected(SessionInfo(still)))
                    }
                } else {
                    sessionEnded()
                }
            }
        case .success(.connection(.close)):
            if let app, raw.sourceID == app.transportId { sessionEnded() }
        default:
            break
        }
    }

    func linkEnded(_ reason: DisconnectReason, link: CastConnection) {
        guard link === connection else { return }
        linkClosed(reason)
    }

    /// The app session ended on the device (stopped by anyone, or replaced). The link to the
    /// device stays open, so receiver status keeps flowing and `start()`/`join()` can follow.
    func sessionEnded() {
        guard app != nil else { return }
        logger.debug("app session ended")
        try? configuration.sessionStore?.forget(deviceID: deviceID)
        wantedApp = nil
        releaseApp(clearMedia: true)
        setState(.disconnected(.sessionEnded))
    }

    private func linkClosed(_ reason: DisconnectReason) {
        connection = nil
        // The status stays: the reconnect below usually rejoins the same media session.
        releaseApp(clearMedia: false)
        guard reason != .closedByUser else {
            setState(.disconnected(.closedByUser))
            return
        }
        logger.info("link lost", metadata: ["cast.reason": "\(reason)"])
        // A followed speaker group is linked to again with nothing joined: its leader moves.
        let followsGroup = group != nil && groupController.assumeIsolated { $0.wanted }
        guard configuration.reconnect.enabled, wantedApp != nil || followsGroup else {
            setState(.disconnected(reason))
            return
        }
        let wanted = wantedApp
        setState(.resuming)
        reconnectTask?.cancel()
        reconnectTask = Task { [weak self] in await self?.reconnect(app: wanted, firstReason: reason) }
    }

    /// Asks `locate` where the device is now and moves there when it moved.
    func relocate() async {
        guard let locate, let found = await locate() else { return }
        if address.set(found) { logger.info("device moved", metadata: ["cast.address": "\(found)"]) }
    }

    /// Links again and rejoins `app` (nil: only the link, for a followed group).
    func reconnect(app: (appID: String, sessionID: String)?, firstReason: DisconnectReason) async {
        let policy = configuration.reconnect
        var attempt = 0
        var lastError = firstReason.description
        let started = ContinuousClock.now
        var lastAttempt = started
        while !Task.isCancelled {
            attempt += 1
            let elapsed = ContinuousClock.now - started
            if let max = policy.maxAttempts, attempt > max {
                setState(.disconnected(.reconnectFailed(attempts: attempt - 1, lastError: lastError)))
                return
            }
            if let limit = policy.giveUpAfter, elapsed > limit {
                setState(.disconnected(.reconnectFailed(attempts: attempt - 1, lastError: lastError)))
                return
            }
            // Attempts *start* `delay` apart: time spent in a failed attempt (a SYN nobody
            // answered) counts towards the wait, so a link that returns is tried again soon.
            let wait = policy.delay(attempt: attempt, elapsed: elapsed) - (ContinuousClock.now - lastAttempt)
            if wait > .zero { try? await Task.sleep(for: wait) }
            if Task.isCancelled { return }
            lastAttempt = ContinuousClock.now
            logger.debug("reconnecting", metadata: ["cast.attempt": "\(attempt)"])
            await relocate()
            do {
                let eager = ContinuousClock.now - started < policy.eagerPeriod
                let status = try await connectPlatform(resuming: true, tcpTimeout: eager ? policy.eagerConnectTimeout : nil)
                guard let app else {
                    setState(.connected(nil))
                    reconnectTask = nil
                    return
                }
                let (appID, sessionID) = app
                let apps = status.applications ?? []
                let running = apps.filter { $0.isIdleScreen != true }
                if let same = running.first(where: { $0.sessionId == sessionID })
                    ?? running.first(where: { $0.appId.uppercased() == appID.uppercased() })
                    ?? running.first(where: { $0.handles(CastNamespace.mediaURN) })
                {
                    // Ours, or what another sender started meanwhile: follow the device.
                    _ = try await joinApp(same)
                } else if running.isEmpty {
                    // The device lost the session (it restarted): start the same app again.
                    _ = try await launch(appID: appID.uppercased())
                } else {
                    // An app we cannot control took over: stay linked to the device.
                    wantedApp = nil
                    setState(.disconnected(.sessionEnded))
                }
                reconnectTask = nil
                return
            } catch {
                lastError = error.description
                if let c = connection {
                    connection = nil
                    await c.close()
                }
                setState(.resuming)
            }
        }
    }
}
