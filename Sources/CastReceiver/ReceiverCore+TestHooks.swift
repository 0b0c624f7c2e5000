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
        default:
            drop(message, from: c, "unknown test hook")
            return
        }
        var answer: [String: JSONValue] = ["type": "CLOCK", "now": .double(now)]
        if let rid { answer["requestId"] = .int(Int64(rid)) }
        send(CastMessage(source: CastEndpoint.receiver, destination: message.sourceID, namespace: message.namespace, utf8: CastJSON.encode(JSONValue.object(answer))), to: c)
    }
}
