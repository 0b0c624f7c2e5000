// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// Replay: the receiver answers with messages recorded from a real device instead of its own
// state (ReceiverConfiguration.replay; `castctl receiver --replay-*`, a test hook). It
// accepts CONNECT to any endpoint, answers receiver GET_STATUS with the recorded
// RECEIVER_STATUS and media GET_STATUS (to whatever transport id the sender picked from it)
// with the recorded MEDIA_STATUS, and sends the recorded extra messages (multizone, app
// namespaces) once a sender connects to receiver-0. The only change made to a recorded
// message is its `requestId`, set to the id of the request it answers, as a device does;
// a recorded text that is not a JSON object is sent exactly as recorded.

import CastProtocol
import NIOCore

/// Messages recorded from a real device, to answer with.
public struct ReplayScript: Sendable {
    /// The RECEIVER_STATUS payload, as recorded.
    public var receiverStatus: String
    /// The MEDIA_STATUS payload, as recorded; without one, media GET_STATUS gets an empty status.
    public var mediaStatus: String?
    /// Messages sent unasked after a sender connects to receiver-0: (namespace, payload).
    public var broadcasts: [(namespace: String, payload: String)]

    public init(receiverStatus: String, mediaStatus: String? = nil, broadcasts: [(namespace: String, payload: String)] = []) {
        self.receiverStatus = receiverStatus
        self.mediaStatus = mediaStatus
        self.broadcasts = broadcasts
    }
}

extension ReceiverCore {
    /// Handles `message` in replay mode; false for what the ordinary path handles (heartbeat,
    /// device authentication).
    func routeReplay(_ message: CastMessage, script: ReplayScript, from c: SenderConnection) -> Bool {
        let sender = message.sourceID
        let peer = message.destinationID
        switch CastNamespace(urn: message.namespace) {
        case .heartbeat, .deviceAuth:
            return false
        case .connection:
            guard case .connection(let m)? = try? message.decoded() else { return true }
            switch m {
            case .connect:
                let vc = VirtualConnection(sender: sender, peer: peer)
                let fresh = !c.virtualConnections.contains(vc)
                c.virtualConnections.insert(vc)
                if fresh, peer == CastEndpoint.receiver {
                    for b in script.broadcasts {
                        send(CastMessage(source: CastEndpoint.receiver, destination: CastEndpoint.broadcast, namespace: b.namespace, utf8: b.payload), to: c)
                    }
                }
            case .close:
                c.virtualConnections.remove(VirtualConnection(sender: sender, peer: peer))
            default: break
            }
            return true
        case .receiver where peer == CastEndpoint.receiver:
            answer(message, recorded: script.receiverStatus, source: CastEndpoint.receiver, on: c)
            return true
        case .media where peer != CastEndpoint.receiver:
            answer(message, recorded: script.mediaStatus ?? #"{"type":"MEDIA_STATUS","status":[]}"#, source: peer, on: c)
            return true
        default:
            drop(message, from: c, "replay: nothing recorded for this namespace")
            return true
        }
    }

    /// Answers a GET_STATUS with the recorded status, anything else with INVALID_REQUEST.
    private func answer(_ message: CastMessage, recorded: String, source: String, on c: SenderConnection) {
        let request = message.withUTF8Payload { try? JSONValue(parsing: $0) } ?? nil
        let id = request?["requestId"]?.intValue
        guard request?["type"]?.stringValue == "GET_STATUS" else {
            let reply = JSONValue.object(["type": "INVALID_REQUEST", "requestId": id.map { .int(Int64($0)) } ?? .null, "reason": "NOT_SUPPORTED"])
            send(CastMessage(source: source, destination: message.sourceID, namespace: message.namespace, utf8: CastJSON.encode(reply)), to: c)
            return
        }
        var text = recorded
        if let id, case .object(var object)? = try? JSONValue(parsing: Array(recorded.utf8)) {
            object["requestId"] = .int(Int64(id))
            text = CastJSON.encode(JSONValue.object(object))
        }
        send(CastMessage(source: source, destination: message.sourceID, namespace: message.namespace, utf8: text), to: c)
    }
}
