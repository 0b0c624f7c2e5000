// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// What happens to a real device besides what its senders ask (docs/receiver.md "Device kinds"):
// ambient mode tears down an app paused too long, a hub closes one that has played nothing for
// its idle timeout, both on the receiver's clock (so `ADVANCE_CLOCK` gets there without
// waiting); and the test hooks for the rest: the TV's input switched away or back, standby,
// a reboot, another phone launching an app (with media of its own).

import CastProtocol
import Foundation

extension ReceiverCore {
    /// Notes since when the running app has played nothing, and ends it once ambient mode or
    /// the idle timeout says so. Called after every message and every tick.
    func followQuiet() {
        guard let app = running else {
            quietSince = nil
            return
        }
        let state = app.player.hasSession ? app.player.playerState : .idle
        guard state == .paused || state == .idle else {
            quietSince = nil
            return
        }
        let since = quietSince ?? now
        quietSince = since
        let limit = state == .paused ? config.ambientAfter : config.idleTimeout
        guard let limit, now - since >= limit else { return }
        logger.notice(
            state == .paused ? "ambient mode: closing the paused app" : "idle timeout: closing the app that plays nothing",
            metadata: ["cast.app.id": "\(app.app.appId)"])
        stopRunningApp()
        broadcastReceiverStatus(requestId: 0, asker: nil)
    }

    /// A test hook's device event; false when `value` is none of them or lacks what it needs.
    func deviceEvent(_ value: JSONValue) -> Bool {
        switch value["type"]?.stringValue {
        case "SWITCH_INPUT":
            // {"type": "SWITCH_INPUT", "active": false}: the TV shows another input (or this one again).
            guard let active = value["active"]?.boolValue else { return false }
            isActiveInput = active
            if !active, config.kind?.closesAppOnInputSwitch == true { stopRunningApp() }
        case "STANDBY":
            guard let on = value["on"]?.boolValue else { return false }
            isStandBy = on
        case "REBOOT":
            // Everything goes at once: no CLOSE, no status; the sockets drop and the device is
            // back, idle, for whoever reconnects.
            logger.notice("test hook: rebooting")
            running = nil
            endMirroring()
            isActiveInput = true
            isStandBy = false
            for c in connections.values { close(c) }
            return true
        case "LAUNCH":
            // {"type": "LAUNCH", "appId": "233637DE", "load": {LOAD request}}: another phone
            // starts an app (any the device knows, or one of ForeignApps), maybe with media.
            guard let id = value["appId"]?.stringValue?.uppercased(),
                let app = apps[id] ?? ReceiverApp.foreign.values.first(where: { $0.appId == id })
            else { return false }
            start(app)
            if let load = value["load"], case .object = load {
                guard let request = try? CastJSON.decode(LoadRequest.self, from: CastJSON.encode(load), namespace: CastNamespace.mediaURN),
                    var r = running
                else { return false }
                let (_, interrupted) = r.player.load(request, now: now)
                running = r
                if !interrupted.isEmpty { broadcastMediaStatus(interrupted) }
                broadcastMediaStatus(r.player.status(at: now))
            }
        default:
            return false
        }
        broadcastReceiverStatus(requestId: 0, asker: nil)
        return true
    }
}
