// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// What arrives on a link, on the link's event loop: the one inbound route
//
//   CastFramingHandler → CastBridgeHandler → CastConnection.receive (decode once)
//     ├─ heartbeat, deviceauth, connection CLOSE bookkeeping: the link itself
//     ├─ routes[namespace] → its NamespaceController (session, media, a custom channel)
//     └─ then the request the message answers resumes its caller
//
// and how the link keeps alive (heartbeat) and ends (close, lost, timed out).
import CastCore
import CastProtocol
import NIOCore
import NIOPosix
import NIOSSL

extension CastConnection {
    // MARK: routing

    func attach(channel: any Channel) {
        self.channel = channel
    }

    /// Adds controllers to the routing table (each for its namespaces); `fallback` also
    /// replaces the one before when given.
    func attach(_ controllers: [any NamespaceController], fallback: (any NamespaceController)? = nil) {
        for controller in controllers {
            for namespace in controller.namespaces { routes[namespace] = controller }
        }
        if let fallback { self.fallback = fallback }
    }

    /// Removes a controller from the routing table.
    func detach(_ controller: any NamespaceController) {
        for namespace in controller.namespaces where routes[namespace] === controller {
            routes[namespace] = nil
        }
    }

    /// One frame from the device (called by the pipeline, on the loop).
    func receive(_ raw: CastMessage) {
        guard closeReason == nil else { return }
        let decoded: Result<NamespacedMessage, CastProtocolError>
        var dropped: [DroppedPart] = []
        do {
            decoded = .success(try raw.decoded(dropped: &dropped))
        } catch {
            decoded = .failure(error)
        }
        // Parts of a message that could not be read were left out; the rest is used (protocol.md §17).
        for part in dropped {
            logger.debug("left out an unreadable part", metadata: ["cast.namespace": "\(raw.namespace)", "cast.part": "\(part)"])
        }
        lastHeard = .now
        logger.trace("receive", metadata: ["cast.message": "\(raw)"])
        switch decoded {
        case .success(.heartbeat(.ping)):
            post(CastMessage(source: senderID, destination: raw.sourceID, HeartbeatMessage.pong))
            return
        case .success(.heartbeat):
            return
        case .success(.connection(.close)):
            virtualConnections.remove(raw.sourceID)
        default:
            if raw.namespace == CastNamespace.deviceAuthURN {
                Task { await self.deviceAuthReply(raw) }
                return
            }
        }
        let message = InboundMessage(raw: raw, decoded: decoded)
        switch decoded {
        case .success(let value):
            if let controller = routes[raw.namespace] ?? fallback {
                controller.assumeIsolated { $0.receive(message, from: self) }
            }
            resolve(value)
        case .failure(let error):
            logger.warning("unreadable message", metadata: ["cast.error": "\(error)", "cast.namespace": "\(raw.namespace)"])
            fallback?.assumeIsolated { $0.receive(message, from: self) }
            // If the broken reply names a request we wait for, fail that request now instead of timing out.
            if let json = raw.withUTF8Payload({ try? CastJSON.decode(JSONValue.self, fromUTF8: $0, namespace: raw.namespace) }),
                let id = json?["requestId"]?.intValue
            {
                fail(id) { label, _ in CastClientError.malformedReply(request: label, reason: error.description) }
            }
        }
    }

    /// Resumes the request `message` answers: the one with its request id, otherwise every
    /// request whose `match` accepts it.
    private func resolve(_ message: NamespacedMessage) {
        guard !pending.isEmpty else { return }
        let id: Int?
        switch message {
        case .receiver(let m): id = m.requestId
        case .media(let m): id = m.requestId
        case .multizone(let m): id = m.requestId
        default: id = nil
        }
        if let id, id != RequestID.unsolicited, let p = pending.removeValue(forKey: id) {
            p.resume(.success(message))
            return
        }
        for (key, p) in pending where p.match?(message) == true {
            pending[key] = nil
            p.resume(.success(message))
        }
    }

    // MARK: heartbeat

    /// Schedules the first heartbeat check.
    func startHeartbeat() {
        logger.debug("connected")
        lastHeard = .now
        lastPing = .now
        scheduleHeartbeat(after: .milliseconds(250))
    }

    private func scheduleHeartbeat(after wait: Duration) {
        heartbeat = loop.scheduleTask(in: .init(max(wait, .milliseconds(50)))) { [self] in
            assumeIsolated { $0.heartbeatTick() }
        }
    }

    /// Sends the PING that is due and notices a silent link; wakes only when something is
    /// due (the next PING, or the moment the link would count as silent).
    private func heartbeatTick() {
        guard closeReason == nil else { return }
        let now = ContinuousClock.now
        if now - lastHeard >= configuration.heartbeatTimeout {
            logger.info("heartbeat lost")
            close(reason: .heartbeatTimeout(seconds: configuration.heartbeatTimeout.seconds))
            return
        }
        if now - lastPing >= configuration.heartbeatInterval {
            lastPing = now
            post(CastMessage(source: CastEndpoint.sender, destination: CastEndpoint.receiver, HeartbeatMessage.ping))
        }
        let nextPing = lastPing + configuration.heartbeatInterval
        let silentAt = lastHeard + configuration.heartbeatTimeout
        scheduleHeartbeat(after: min(nextPing, silentAt) - now)
    }

    // MARK: closing

    /// Closes the link (CLOSE on every virtual connection first). Pending requests fail with `connectionLost(.closedByUser)`.
    public func close() async {
        guard closeReason == nil else { return }
        for destination in virtualConnections.sorted(by: { a, _ in a != CastEndpoint.receiver }) {
            await closeVirtual(to: destination)
        }
        close(reason: .closedByUser)
    }

    func close(reason: DisconnectReason) {
        guard closeReason == nil else { return }
        linkEnded(reason)
        channel?.close(promise: nil)
    }

    /// The link is over (called once by the pipeline when the socket closes, or by `close`):
    /// waiting requests fail and every controller is told.
    func linkEnded(_ reason: DisconnectReason) {
        guard closeReason == nil else { return }
        closeReason = reason
        logger.debug("disconnected", metadata: ["cast.reason": "\(reason)"])
        heartbeat?.cancel()
        heartbeat = nil
        let waiting = pending.values
        pending = [:]
        for p in waiting { p.resume(.failure(CastClientError.connectionLost(reason))) }
        var told: [ObjectIdentifier] = []
        for controller in Array(routes.values) + [fallback].compactMap({ $0 }) where !told.contains(ObjectIdentifier(controller)) {
            told.append(ObjectIdentifier(controller))
            controller.assumeIsolated { $0.linkEnded(reason, link: self) }
        }
        if reason != .closedByUser { channel?.close(promise: nil) }
    }
}

func describe(_ error: any Error) -> String {
    switch error {
    // NIO's text wraps the system's ("connection reset (error set): Connection refused (errno:
    // 111)"); the system's own sentence is the part a person can act on.
    case let e as IOError: return String(cString: strerror(e.errnoCode))
    case let e as NIOConnectionError:
        if let first = e.connectionErrors.first { return describe(first.error) }
        if let dns = e.dnsAAAAError ?? e.dnsAError { return "the name could not be resolved (\(dns))" }
        return "connection failed"
    case ChannelError.connectTimeout(let t): return "no answer within \(DisconnectReason.format(Double(t.nanoseconds) / 1e9)) s"
    case ChannelError.eof: return "the device closed the connection"
    case let e as NIOSSLError: return "\(e)"
    case let e as CastClientError: return e.description
    default: return "\(error)"
    }
}
