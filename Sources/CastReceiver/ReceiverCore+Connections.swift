// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import Foundation
import Logging
import NIOCore

extension ReceiverCore {
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
        logger.warning(
            "closing a sender connection after bad input",
            metadata: [
                "cast.connection": "\(c?.id ?? 0)", "reason": "\(reason)",
            ])
        c?.closing = true
    }

    func heartbeatCheck(_ c: SenderConnection) {
        let silent = NIODeadline.now() - c.lastInbound
        if silent >= TimeAmount.of(config.heartbeat.timeout) {
            logger.info("dropping a sender that stopped answering heartbeats", metadata: ["cast.connection": "\(c.id)"])
            close(c)
        } else if silent >= TimeAmount.of(config.heartbeat.interval) - .milliseconds(50) {
            send(CastMessage(source: CastEndpoint.receiver, destination: CastEndpoint.sender, HeartbeatMessage.ping), to: c)
        }
    }

    func close(_ c: SenderConnection) {
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

    // MARK: - tp.connection

    func handleConnection(_ message: CastMessage, from c: SenderConnection) {
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
}
