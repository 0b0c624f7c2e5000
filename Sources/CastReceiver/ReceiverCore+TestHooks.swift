// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import Foundation
import Logging
import NIOCore

extension ReceiverCore {
    // MARK: - Test hooks

    func handleControl(_ message: CastMessage, from c: SenderConnection) {
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
        case "END_LIVE":
            // The live stream ends (isLiveDone): what its window holds plays to the end.
            guard var app = running, app.player.endLive(now: now) else {
                drop(message, from: c, "END_LIVE needs a LIVE stream playing")
                return
            }
            running = app
            broadcastMediaStatus(app.player.status(at: now))
        case "SEND_MEDIA_STATUS":
            // Whatever a hostile or broken device might send: the file's bytes go out as they
            // are, as one message on the media namespace, to every sender of the running app.
            // (A file, not an inline string, so tests can send up to the 64 KiB frame limit.)
            guard let path = value["file"]?.stringValue, let app = running,
                let data = FileManager.default.contents(atPath: path)
            else {
                drop(message, from: c, "SEND_MEDIA_STATUS needs a readable file and a running app")
                return
            }
            let text = String(decoding: data, as: UTF8.self)
            logger.info("test hook: sending \(data.count) bytes of MEDIA_STATUS from \(path)")
            for conn in connections.values where !conn.closing {
                for sender in conn.senders(connectedTo: app.transportId) {
                    send(CastMessage(source: app.transportId, destination: sender, namespace: CastNamespace.mediaURN, utf8: text), to: conn)
                }
            }
        default:
            // What happens to a real device: its input switched, a reboot, another phone (+Kinds).
            guard deviceEvent(value) || groupHook(value) else {
                drop(message, from: c, "unknown test hook, or one missing what it needs")
                return
            }
        }
        var answer: JSONObject = ["type": "CLOCK", "now": .double(now)]
        if let rid { answer["requestId"] = .int(Int64(rid)) }
        send(
            CastMessage(
                source: CastEndpoint.receiver, destination: message.sourceID, namespace: message.namespace, utf8: CastJSON.encode(JSONValue.object(answer))),
            to: c)
    }
}
