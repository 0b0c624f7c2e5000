// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import CastStreaming
import Foundation
import Logging
import NIOCore

extension ReceiverCore {
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
        followQuiet()  // ambient mode and idle timeouts count from the last change (+Kinds)
        if let limit = config.faults.closeAfterMessages, c.messagesIn >= limit {
            logger.info("fault: closing the connection after \(limit) messages", metadata: ["cast.connection": "\(c.id)"])
            close(c)
        }
    }

    func drop(_ message: CastMessage, from c: SenderConnection, _ why: String) {
        logger.info(
            "dropped a message",
            metadata: [
                "cast.connection": "\(c.id)", "cast.namespace": "\(message.namespace)", "reason": "\(why)",
            ])
    }

    func route(_ message: CastMessage, from c: SenderConnection) {
        if let script = config.replay, routeReplay(message, script: script, from: c) { return }
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
            reply(
                HeartbeatMessage.pong, from: message.destinationID == CastEndpoint.broadcast ? CastEndpoint.receiver : message.destinationID, to: sender, on: c)
            return
        case .deviceAuth:
            handleDeviceAuth(message, from: c)
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
            case .multizone: handleMultizone(message, from: c)
            case .custom(Self.controlNamespace) where config.manualClock != nil || config.testHooks: handleControl(message, from: c)
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
        case .media: mediaCore.handleMedia(message, from: c)
        case .custom(CastStreamingIDs.namespace) where app.app.mirrors: handleStreaming(message, from: c)
        default:
            if message.namespace == ReceiverApp.helloWorldNamespace {
                // The echo keeps the received payload as it is held (bytes, no String made).
                var echo = message
                echo.protocolVersion = 0
                echo.sourceID = app.transportId
                echo.destinationID = sender
                send(echo, to: c)
            } else {
                logger.info("app message accepted", metadata: ["cast.namespace": "\(message.namespace)", "cast.app.id": "\(app.app.appId)"])
            }
        }
    }

    func invalidRequest(_ rid: Int?, _ reason: ErrorReason, to sender: String, on c: SenderConnection, ns: CastNamespace) {
        let e = ErrorReply(requestId: rid, reason: reason)
        if ns == .media {
            reply(MediaMessage.invalidRequest(e), from: running?.transportId ?? CastEndpoint.receiver, to: sender, on: c)
        } else {
            reply(ReceiverMessage.invalidRequest(e), from: CastEndpoint.receiver, to: sender, on: c)
        }
    }

    /// Error replies for JSON a namespace cannot read: with the request id when one can be
    /// found, INVALID_COMMAND for an unknown type, INVALID_REQUEST for anything else.
    func rejectUnreadable(_ message: CastMessage, _ error: CastProtocolError, from c: SenderConnection, ns: CastNamespace) {
        logger.info(
            "rejected an unreadable request",
            metadata: [
                "cast.connection": "\(c.id)", "cast.namespace": "\(message.namespace)", "reason": "\(error.description)",
            ])
        var rid: Int?
        if let value = message.withUTF8Payload({ try? CastJSON.decode(JSONValue.self, fromUTF8: $0, namespace: message.namespace) }) {
            rid = value?["requestId"]?.intValue
        }
        invalidRequest(rid, .invalidRequest, to: message.sourceID, on: c, ns: ns)
    }
}
