// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import Foundation
import Logging
import NIOCore

extension ReceiverCore {
    // MARK: - receiver-0

    func receiverStatus() -> ReceiverStatus {
        var apps: [ReceiverApplication] = []
        if let r = running {
            apps.append(Self.application(r.app, session: r.sessionId))
        } else if let idle = config.kind?.idleScreen {
            apps.append(Self.application(idle, session: idleScreenSession, idle: true))
        }
        let input = config.kind.map { $0.reportsInput } ?? true
        return ReceiverStatus(
            applications: apps, isActiveInput: input ? isActiveInput : nil, isStandBy: input ? isStandBy : nil, volume: volume, userEq: [:])
    }

    static func application(_ app: ReceiverApp, session: String, idle: Bool = false) -> ReceiverApplication {
        ReceiverApplication(
            appId: app.appId, displayName: app.displayName, namespaces: app.namespaces, sessionId: session,
            statusText: app.statusText ?? app.displayName, transportId: session, isIdleScreen: idle, iconUrl: app.iconUrl, appType: app.appType,
            universalAppId: app.universalAppId)
    }

    /// RECEIVER_STATUS with `requestId` to the asker and with 0 to every other socket.
    func broadcastReceiverStatus(requestId: Int?, asker: (SenderConnection, String)?) {
        let status = receiverStatus()
        for c in connections.values where !c.closing {
            if let asker, asker.0 === c {
                reply(
                    ReceiverMessage.receiverStatus(ReceiverStatusMessage(requestId: requestId, status: status)), from: CastEndpoint.receiver, to: asker.1, on: c
                )
            } else {
                reply(
                    ReceiverMessage.receiverStatus(ReceiverStatusMessage(requestId: 0, status: status)), from: CastEndpoint.receiver,
                    to: CastEndpoint.broadcast, on: c)
            }
        }
        mirrorToMembers { _ in }
    }

    func handleReceiver(_ message: CastMessage, from c: SenderConnection) {
        let sender = message.sourceID
        let request: ReceiverMessage
        do {
            guard case .receiver(let m) = try message.decoded() else { return }
            request = m
        } catch {
            rejectUnreadable(message, error, from: c, ns: .receiver)
            return
        }
        switch request {
        case .getStatus(let r):
            reply(
                ReceiverMessage.receiverStatus(ReceiverStatusMessage(requestId: r.requestId, status: receiverStatus())), from: CastEndpoint.receiver,
                to: sender, on: c)
        case .launch(let r):
            guard let asked = apps[r.appId.uppercased()] else {
                reply(
                    ReceiverMessage.launchError(LaunchErrorMessage(requestId: r.requestId, reason: .notFound, error: "NOT_FOUND")), from: CastEndpoint.receiver,
                    to: sender, on: c)
                return
            }
            start(asked)
            broadcastReceiverStatus(requestId: r.requestId, asker: (c, sender))
        case .stop(let r):
            if let id = r.sessionId, id != running?.sessionId {
                invalidRequest(r.requestId, .invalidSessionID, to: sender, on: c, ns: .receiver)
                return
            }
            stopRunningApp()
            broadcastReceiverStatus(requestId: r.requestId, asker: (c, sender))
        case .setVolume(let r):
            let before = volume
            defer { groupVolumeChanged(from: before) }
            if let level = r.volume.level {
                guard level.isFinite else {
                    invalidRequest(r.requestId, .invalidParams, to: sender, on: c, ns: .receiver)
                    return
                }
                volume.level = min(max(level, 0), 1)
            }
            if let muted = r.volume.muted { volume.muted = muted }
            broadcastReceiverStatus(requestId: r.requestId, asker: (c, sender))
        case .getAppAvailability(let r):
            var availability: [String: String] = [:]
            for id in r.appId { availability[id] = apps[id.uppercased()] != nil ? "APP_AVAILABLE" : "APP_UNAVAILABLE" }
            reply(
                ReceiverMessage.appAvailability(AppAvailabilityResponse(requestId: r.requestId, availability: availability)), from: CastEndpoint.receiver,
                to: sender, on: c)
        case .unknown(let type, let payload):
            logger.info("unknown receiver request", metadata: ["cast.type": "\(type)"])
            invalidRequest(payload["requestId"]?.intValue, .invalidCommand, to: sender, on: c, ns: .receiver)
        case .receiverStatus, .appAvailability, .launchError, .launchStatus, .invalidRequest:
            invalidRequest(request.requestId, .invalidCommand, to: sender, on: c, ns: .receiver)
        }
    }

    /// Starts `asked` (as this kind of device runs it) unless it already runs.
    func start(_ asked: ReceiverApp) {
        let app = config.kind?.launched(asked) ?? asked
        guard running?.app.appId != app.appId else { return }
        stopRunningApp()
        let session = UUID().uuidString
        running = RunningApp(app: app, sessionId: session, transportId: session)
        running?.player.announcedCommands = app.supportedMediaCommands ?? config.supportedMediaCommands
        running?.player.live.window = config.liveWindow
        quietSince = now
        logger.info("app launched", metadata: ["cast.app.id": "\(app.appId)", "cast.session.id": "\(session)"])
    }

    /// Ends the running app: CLOSE on every virtual connection to it, as devices do.
    func stopRunningApp() {
        guard let app = running else { return }
        running = nil
        endMirroring()
        logger.info("app stopped", metadata: ["cast.app.id": "\(app.app.appId)"])
        for c in connections.values {
            for sender in c.senders(connectedTo: app.transportId) {
                reply(ConnectionMessage.close(CloseMessage(reasonCode: 5)), from: app.transportId, to: sender, on: c)
                c.virtualConnections.remove(VirtualConnection(sender: sender, peer: app.transportId))
            }
        }
    }
}
