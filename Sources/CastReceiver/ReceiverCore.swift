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
    private var logger: Logger
    private let apps: [String: ReceiverApp]
    private var connections: [ObjectIdentifier: SenderConnection] = [:]
    private var nextConnectionId = 1
    private var volume = Volume(level: 1, muted: false, controlType: "attenuation", stepInterval: 0.05)
    var running: RunningApp?  // set by ReceiverCore+Fetch.swift too
    private var malformedSent = false
    private var ticker: RepeatedTask?

    init(loop: any EventLoop, config: ReceiverConfiguration) {
        self.loop = loop
        self.config = config
        self.logger = config.logger
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
        for c in connections.values {
            c.heartbeat?.cancel()
            c.channel.close(promise: nil)
        }
    }

    /// Re-evaluates playback at the clock's current time and tells every sender of the app
    /// what changed (breaks starting or ending, media finishing).
    func tick() {
        loop.assertInEventLoop()
        guard var app = running else { return }
        let changed = app.player.advance(to: now)
        running = app
        if changed { broadcastMediaStatus(app.player.status(at: now)) }
    }

    // MARK: - Connections

    func register(channel: any Channel) -> SenderConnection {
        loop.assertInEventLoop()
        let c = SenderConnection(id: nextConnectionId, channel: channel)
        nextConnectionId += 1
        connections[ObjectIdentifier(c)] = c
        logger.info("sender connected", metadata: ["cast.connection": "\(c.id)", "cast.peer": "\(channel.remoteAddress.map { "\($0)" } ?? "?")"])
        let interval = TimeAmount.of(config.heartbeat.interval)
        c.heartbeat = loop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { [weak self, weak c] _ in
            guard let self, let c else { return }
            self.heartbeatCheck(c)
        }
        return c
    }

    func unregister(_ c: SenderConnection) {
        loop.assertInEventLoop()
        c.heartbeat?.cancel()
        guard connections.removeValue(forKey: ObjectIdentifier(c)) != nil else { return }
        logger.info("sender disconnected", metadata: ["cast.connection": "\(c.id)"])
    }

    func connectionFailed(_ c: SenderConnection?, reason: String) {
        logger.warning("closing a sender connection after bad input", metadata: [
            "cast.connection": "\(c?.id ?? 0)", "reason": "\(reason)",
        ])
        c?.closing = true
    }

    private func heartbeatCheck(_ c: SenderConnection) {
        let silent = NIODeadline.now() - c.lastInbound
        if silent >= TimeAmount.of(config.heartbeat.timeout) {
            logger.info("dropping a sender that stopped answering heartbeats", metadata: ["cast.connection": "\(c.id)"])
            close(c)
        } else if silent >= TimeAmount.of(config.heartbeat.interval) - .milliseconds(50) {
            send(CastMessage(source: CastEndpoint.receiver, destination: CastEndpoint.sender, HeartbeatMessage.ping), to: c)
        }
    }

    private func close(_ c: SenderConnection) {
        guard !c.closing else { return }
        c.closing = true
        c.heartbeat?.cancel()
        if let delay = config.faults.replyDelay {
            // Let delayed replies already on their way go out first.
            loop.scheduleTask(in: TimeAmount.of(delay) + .milliseconds(1)) { c.channel.close(promise: nil) }
        } else {
            c.channel.close(promise: nil)
        }
    }

    // MARK: - Sending

    func send(_ message: CastMessage, to c: SenderConnection) {
        guard c.channel.isActive else { return }
        if message.namespace == CastNamespace.heartbeatURN {
            logger.trace("send", metadata: ["cast.connection": "\(c.id)", "cast.message": "\(message)"])
        } else {
            logger.debug("send", metadata: ["cast.connection": "\(c.id)", "cast.message": "\(message)"])
        }
        if let delay = config.faults.replyDelay {
            loop.scheduleTask(in: TimeAmount.of(delay)) {
                c.channel.writeAndFlush(message, promise: nil)
            }
        } else {
            c.channel.writeAndFlush(message, promise: nil)
        }
    }

    func reply<M: CastJSONMessage>(_ message: M, from source: String, to sender: String, on c: SenderConnection) {
        send(CastMessage(source: source, destination: sender, message), to: c)
    }

    // MARK: - Receiving

    func handle(_ message: CastMessage, from c: SenderConnection) {
        loop.assertInEventLoop()
        guard !c.closing else { return }
        c.lastInbound = .now()
        c.messagesIn += 1
        if message.namespace == CastNamespace.heartbeatURN {
            logger.trace("receive", metadata: ["cast.connection": "\(c.id)", "cast.message": "\(message)"])
        } else {
            logger.debug("receive", metadata: ["cast.connection": "\(c.id)", "cast.message": "\(message)"])
        }
        route(message, from: c)
        if let limit = config.faults.closeAfterMessages, c.messagesIn >= limit {
            logger.info("fault: closing the connection after \(limit) messages", metadata: ["cast.connection": "\(c.id)"])
            close(c)
        }
    }

    private func drop(_ message: CastMessage, from c: SenderConnection, _ why: String) {
        logger.info("dropped a message", metadata: [
            "cast.connection": "\(c.id)", "cast.namespace": "\(message.namespace)", "reason": "\(why)",
        ])
    }

    private func route(_ message: CastMessage, from c: SenderConnection) {
        let ns = CastNamespace(urn: message.namespace)
        let sender = message.sourceID
        let vc = VirtualConnection(sender: sender, peer: message.destinationID)
        switch ns {
        case .connection:
            handleConnection(message, from: c)
            return
        case .heartbeat:
            guard case .heartbeat(.ping)? = try? message.decoded() else { return }
            if let after = config.faults.stopPongsAfter, NIODeadline.now() - c.openedAt >= TimeAmount.of(after) {
                logger.info("fault: not answering a PING", metadata: ["cast.connection": "\(c.id)"])
                return
            }
            reply(HeartbeatMessage.pong, from: message.destinationID == CastEndpoint.broadcast ? CastEndpoint.receiver : message.destinationID, to: sender, on: c)
            return
        case .deviceAuth:
            // No Google-rooted credentials here: answer AuthError INTERNAL_ERROR (protobuf
            // DeviceAuthMessage{error{error_type: 0}}), as cast-protocol.md §7 suggests.
            send(CastMessage(sourceID: CastEndpoint.receiver, destinationID: sender, namespace: message.namespace, payload: .binary([0x1A, 0x02, 0x08, 0x00])), to: c)
            return
        default:
            break
        }
        guard c.virtualConnections.contains(vc) else {
            drop(message, from: c, "no virtual connection from \(sender) to \(message.destinationID)")
            return
        }
        if message.destinationID == CastEndpoint.receiver {
            switch ns {
            case .receiver: handleReceiver(message, from: c)
            case .custom(Self.controlNamespace) where config.manualClock != nil: handleControl(message, from: c)
            default: drop(message, from: c, "receiver-0 does not handle this namespace")
            }
            return
        }
        guard let app = running, message.destinationID == app.transportId else {
            drop(message, from: c, "no running app has this transport id")
            return
        }
        guard app.app.namespaces.contains(message.namespace) else {
            drop(message, from: c, "the app \(app.app.appId) does not list this namespace")
            return
        }
        switch ns {
        case .media: handleMedia(message, from: c)
        default:
            if message.namespace == ReceiverApp.helloWorldNamespace {
                send(CastMessage(sourceID: app.transportId, destinationID: sender, namespace: message.namespace, payload: message.payload), to: c)
            } else {
                logger.info("app message accepted", metadata: ["cast.namespace": "\(message.namespace)", "cast.app.id": "\(app.app.appId)"])
            }
        }
    }

    // MARK: - tp.connection

    private func handleConnection(_ message: CastMessage, from c: SenderConnection) {
        let sender = message.sourceID
        let peer = message.destinationID
        guard sender != CastEndpoint.broadcast, peer != CastEndpoint.broadcast else { return }
        let decoded: ConnectionMessage
        do {
            guard case .connection(let m) = try message.decoded() else { return }
            decoded = m
        } catch {
            drop(message, from: c, error.description)
            return
        }
        switch decoded {
        case .connect(let request):
            let known = peer == CastEndpoint.receiver || peer == running?.transportId
            let validType = request.connType.map { (0...2).contains($0) } ?? true
            guard known, validType else {
                reply(ConnectionMessage.close(CloseMessage(reasonCode: 5)), from: peer, to: sender, on: c)
                return
            }
            c.virtualConnections.insert(VirtualConnection(sender: sender, peer: peer))
            if request.protocolVersion != nil || request.protocolVersionList != nil {
                reply(ConnectionMessage.connected(ConnectedMessage(protocolVersion: 0)), from: peer, to: sender, on: c)
            }
        case .close:
            c.virtualConnections.remove(VirtualConnection(sender: sender, peer: peer))
        case .connected, .unknown:
            drop(message, from: c, "not a request a receiver handles")
        }
    }

    // MARK: - receiver-0

    func receiverStatus() -> ReceiverStatus {
        var apps: [ReceiverApplication] = []
        if let r = running {
            apps.append(ReceiverApplication(
                appId: r.app.appId, displayName: r.app.displayName, namespaces: r.app.namespaces, sessionId: r.sessionId,
                statusText: r.app.displayName, transportId: r.transportId))
        }
        return ReceiverStatus(applications: apps, isActiveInput: true, isStandBy: false, volume: volume, userEq: [:])
    }

    /// RECEIVER_STATUS with `requestId` to the asker and with 0 to every other socket.
    private func broadcastReceiverStatus(requestId: Int?, asker: (SenderConnection, String)?) {
        let status = receiverStatus()
        for c in connections.values where !c.closing {
            if let asker, asker.0 === c {
                reply(ReceiverMessage.receiverStatus(ReceiverStatusMessage(requestId: requestId, status: status)), from: CastEndpoint.receiver, to: asker.1, on: c)
            } else {
                reply(ReceiverMessage.receiverStatus(ReceiverStatusMessage(requestId: 0, status: status)), from: CastEndpoint.receiver, to: CastEndpoint.broadcast, on: c)
            }
        }
    }

    private func invalidRequest(_ rid: Int?, _ reason: ErrorReason, to sender: String, on c: SenderConnection, ns: CastNamespace) {
        let e = ErrorReply(requestId: rid, reason: reason)
        if ns == .media {
            reply(MediaMessage.invalidRequest(e), from: running?.transportId ?? CastEndpoint.receiver, to: sender, on: c)
        } else {
            reply(ReceiverMessage.invalidRequest(e), from: CastEndpoint.receiver, to: sender, on: c)
        }
    }

    /// Error replies for JSON a namespace cannot read: with the request id when one can be
    /// found, INVALID_COMMAND for an unknown type, INVALID_REQUEST for anything else.
    private func rejectUnreadable(_ message: CastMessage, _ error: CastProtocolError, from c: SenderConnection, ns: CastNamespace) {
        logger.info("rejected an unreadable request", metadata: [
            "cast.connection": "\(c.id)", "cast.namespace": "\(message.namespace)", "reason": "\(error.description)",
        ])
        var rid: Int?
        if let text = message.utf8, let value = try? CastJSON.decode(JSONValue.self, from: text, namespace: message.namespace) {
            rid = value["requestId"]?.intValue
        }
        invalidRequest(rid, .invalidRequest, to: message.sourceID, on: c, ns: ns)
    }

    private func handleReceiver(_ message: CastMessage, from c: SenderConnection) {
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
            reply(ReceiverMessage.receiverStatus(ReceiverStatusMessage(requestId: r.requestId, status: receiverStatus())), from: CastEndpoint.receiver, to: sender, on: c)
        case .launch(let r):
            guard let app = apps[r.appId.uppercased()] else {
                reply(ReceiverMessage.launchError(LaunchErrorMessage(requestId: r.requestId, reason: .notFound, error: "NOT_FOUND")), from: CastEndpoint.receiver, to: sender, on: c)
                return
            }
            if running?.app.appId != app.appId {
                stopRunningApp()
                let session = UUID().uuidString
                running = RunningApp(app: app, sessionId: session, transportId: session)
                logger.info("app launched", metadata: ["cast.app.id": "\(app.appId)", "cast.session.id": "\(session)"])
            }
            broadcastReceiverStatus(requestId: r.requestId, asker: (c, sender))
        case .stop(let r):
            if let id = r.sessionId, id != running?.sessionId {
                invalidRequest(r.requestId, .invalidSessionID, to: sender, on: c, ns: .receiver)
                return
            }
            stopRunningApp()
            broadcastReceiverStatus(requestId: r.requestId, asker: (c, sender))
        case .setVolume(let r):
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
            reply(ReceiverMessage.appAvailability(AppAvailabilityResponse(requestId: r.requestId, availability: availability)), from: CastEndpoint.receiver, to: sender, on: c)
        case .unknown(let type, let payload):
            logger.info("unknown receiver request", metadata: ["cast.type": "\(type)"])
            invalidRequest(payload["requestId"]?.intValue, .invalidCommand, to: sender, on: c, ns: .receiver)
        case .receiverStatus, .appAvailability, .launchError, .launchStatus, .invalidRequest:
            invalidRequest(request.requestId, .invalidCommand, to: sender, on: c, ns: .receiver)
        }
    }

    /// Ends the running app: CLOSE on every virtual connection to it, as devices do.
    private func stopRunningApp() {
        guard let app = running else { return }
        running = nil
        logger.info("app stopped", metadata: ["cast.app.id": "\(app.app.appId)"])
        for c in connections.values {
            for sender in c.senders(connectedTo: app.transportId) {
                reply(ConnectionMessage.close(CloseMessage(reasonCode: 5)), from: app.transportId, to: sender, on: c)
                c.virtualConnections.remove(VirtualConnection(sender: sender, peer: app.transportId))
            }
        }
    }

    // MARK: - Test hooks

    private func handleControl(_ message: CastMessage, from c: SenderConnection) {
        guard let text = message.utf8,
            let value = try? CastJSON.decode(JSONValue.self, from: text, namespace: message.namespace)
        else {
            drop(message, from: c, "test hook messages are JSON objects")
            return
        }
        let rid = value["requestId"]?.intValue
        switch value["type"]?.stringValue {
        case "ADVANCE_CLOCK":
            guard let seconds = value["seconds"]?.doubleValue, seconds >= 0, seconds.isFinite else {
                drop(message, from: c, "ADVANCE_CLOCK needs a non-negative number of seconds")
                return
            }
            config.manualClock?.advance(by: seconds)
            tick()
        case "GET_CLOCK":
            break
        default:
            drop(message, from: c, "unknown test hook")
            return
        }
        var answer: [String: JSONValue] = ["type": "CLOCK", "now": .double(now)]
        if let rid { answer["requestId"] = .int(Int64(rid)) }
        send(CastMessage(source: CastEndpoint.receiver, destination: message.sourceID, namespace: message.namespace, utf8: CastJSON.encode(JSONValue.object(answer))), to: c)
    }

    // MARK: - Media

    /// MEDIA_STATUS to every sender of the running app: with `requestId` to the asker,
    /// with 0 (to `*`) to everyone else.
    private func sendMediaStatus(_ status: [MediaStatus], requestId: Int?, asker: (SenderConnection, String)?) {
        guard let app = running else { return }
        sendMalformedMediaStatusIfAsked(app)
        // The copy for everyone but the asker is the same bytes for all: encode it once.
        let broadcastCopy = CastMessage(
            source: app.transportId, destination: CastEndpoint.broadcast,
            MediaMessage.mediaStatus(MediaStatusMessage(requestId: 0, status: status)))
        for c in connections.values where !c.closing {
            let senders = c.senders(connectedTo: app.transportId)
            guard !senders.isEmpty else { continue }
            if let asker, asker.0 === c, senders.contains(asker.1) {
                reply(MediaMessage.mediaStatus(MediaStatusMessage(requestId: requestId, status: status)), from: app.transportId, to: asker.1, on: c)
                for other in senders where other != asker.1 {
                    reply(MediaMessage.mediaStatus(MediaStatusMessage(requestId: 0, status: status)), from: app.transportId, to: other, on: c)
                }
            } else {
                send(broadcastCopy, to: c)
            }
        }
    }

    /// The `malformedMediaStatusOnce` fault: one MEDIA_STATUS no parser can accept, to
    /// every sender of the app, before the first real one.
    private func sendMalformedMediaStatusIfAsked(_ app: RunningApp) {
        if config.faults.malformedMediaStatusOnce, !malformedSent {
            malformedSent = true
            let bad = #"{"type":"MEDIA_STATUS","requestId":0,"status":{"mediaSessionId":"not a number","playerState":17}}"#
            logger.info("fault: sending one malformed MEDIA_STATUS")
            for c in connections.values {
                for sender in c.senders(connectedTo: app.transportId) {
                    send(CastMessage(source: app.transportId, destination: sender, namespace: CastNamespace.mediaURN, utf8: bad), to: c)
                }
            }
        }
    }

    func broadcastMediaStatus(_ status: [MediaStatus]) {
        sendMediaStatus(status, requestId: 0, asker: nil)
    }

    func handleMedia(_ message: CastMessage, from c: SenderConnection, fetched: Bool = false) {
        let sender = message.sourceID
        let request: MediaMessage
        do {
            guard case .media(let m) = try message.decoded() else { return }
            request = m
        } catch {
            rejectUnreadable(message, error, from: c, ns: .media)
            return
        }
        // Bring the timeline up to date first, so everyone hears about a break that ended
        // or media that finished before the reply to this request.
        tick()
        guard var app = running else { return }
        let t = now
        let result: MediaPlayer.Reply
        var interrupted: [MediaStatus] = []
        switch request {
        case .getStatus(let r):
            sendMalformedMediaStatusIfAsked(app)
            reply(MediaMessage.mediaStatus(MediaStatusMessage(requestId: r.requestId, status: app.player.status(at: t))), from: app.transportId, to: sender, on: c)
            return
        case .load(let r):
            if config.fetchMedia, !fetched { return fetchMediaThenLoad(r, message: message, from: c) }  // ReceiverCore+Fetch.swift
            (result, interrupted) = app.player.load(r, now: t)
        case .queueLoad(let r): (result, interrupted) = app.player.queueLoad(r, now: t)
        case .play(let r): result = app.player.play(r, now: t)
        case .pause(let r): result = app.player.pause(r, now: t)
        case .stop(let r): result = app.player.stop(r, now: t)
        case .seek(let r): result = app.player.seek(r, now: t)
        case .setPlaybackRate(let r): result = app.player.setPlaybackRate(r, now: t)
        case .setVolume(let r): result = app.player.setVolume(r, now: t)
        case .editTracksInfo(let r): result = app.player.editTracksInfo(r, now: t)
        case .editAudioTracks(let r):
            invalidRequest(r.requestId, .notSupported, to: sender, on: c, ns: .media)
            return
        case .skipAd(let r): result = app.player.skipAd(r, now: t)
        case .queueInsert(let r): result = app.player.queueInsert(r, now: t)
        case .queueUpdate(let r): result = app.player.queueUpdate(r, now: t)
        case .queueRemove(let r): result = app.player.queueRemove(r, now: t)
        case .queueReorder(let r): result = app.player.queueReorder(r, now: t)
        case .queueNext(let r): result = app.player.jump(r, by: 1, now: t)
        case .queuePrev(let r): result = app.player.jump(r, by: -1, now: t)
        case .unknown(let type, let payload):
            logger.info("unknown media request", metadata: ["cast.type": "\(type)"])
            invalidRequest(payload["requestId"]?.intValue, .invalidCommand, to: sender, on: c, ns: .media)
            return
        case .mediaStatus, .invalidPlayerState, .loadFailed, .loadCancelled, .invalidRequest, .error:
            invalidRequest(request.requestId, .invalidCommand, to: sender, on: c, ns: .media)
            return
        }
        running = app
        switch result {
        case .status:
            if !interrupted.isEmpty { broadcastMediaStatus(interrupted) }
            sendMediaStatus(app.player.status(at: t), requestId: request.requestId, asker: (c, sender))
        case .error(let type, let reason):
            let e = ErrorReply(requestId: request.requestId, reason: reason)
            let m: MediaMessage =
                switch type {
                case "INVALID_PLAYER_STATE": .invalidPlayerState(e)
                case "LOAD_FAILED": .loadFailed(e)
                default: .invalidRequest(e)
                }
            reply(m, from: app.transportId, to: sender, on: c)
        }
    }
}

extension TimeAmount {
    static func of(_ d: Duration) -> TimeAmount {
        .nanoseconds(d.components.seconds * 1_000_000_000 + d.components.attoseconds / 1_000_000_000)
    }
}
