// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import Foundation
import Logging
import NIOCore

extension ReceiverCore {
    // MARK: - Media

    /// MEDIA_STATUS to every sender of the running app: with `requestId` to the asker,
    /// with 0 (to `*`) to everyone else.
    func sendMediaStatus(_ status: [MediaStatus], requestId: Int?, asker: (SenderConnection, String)?) {
        guard let app = running else { return }
        announcedPreloadedItemId = status.first?.preloadedItemId
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
        mirrorToMembers { $0.sendMediaStatus(status, requestId: requestId, asker: asker) }
    }

    /// The `malformedMediaStatusOnce` fault: one MEDIA_STATUS no parser can accept, to
    /// every sender of the app, before the first real one. It is cut off mid-way: a status
    /// with unreadable members would be read loosely (its parts left out), as a real one is.
    func sendMalformedMediaStatusIfAsked(_ app: RunningApp) {
        if config.faults.malformedMediaStatusOnce, !malformedSent {
            malformedSent = true
            let bad = #"{"type":"MEDIA_STATUS","requestId":0,"status":[{"mediaSessionId":"not a number","playerState":17"#
            logger.info("fault: sending one malformed MEDIA_STATUS")
            for c in connections.values {
                for sender in c.senders(connectedTo: app.transportId) {
                    send(CastMessage(source: app.transportId, destination: sender, namespace: CastNamespace.mediaURN, utf8: bad), to: c)
                }
            }
        }
    }

    /// QUEUE_CHANGE to every sender of the running app (`requestId` 0).
    func broadcastQueueChanges(_ changes: [QueueChangeMessage]) {
        guard let app = running, !changes.isEmpty else { return }
        for change in changes {
            let message = CastMessage(source: app.transportId, destination: CastEndpoint.broadcast, MediaMessage.queueChange(change))
            for c in connections.values where !c.closing && !c.senders(connectedTo: app.transportId).isEmpty {
                send(message, to: c)
            }
        }
        mirrorToMembers { $0.broadcastQueueChanges(changes) }
    }

    /// The answer to a queue read, or its error, to the asker only.
    func answerQueueRead(_ result: Result<MediaMessage, QueueReadFailure>, app: RunningApp, to sender: String, on c: SenderConnection) {
        switch result {
        case .success(let m): reply(m, from: app.transportId, to: sender, on: c)
        case .failure(let f):
            reply(f.reply.reason == nil ? MediaMessage.invalidPlayerState(f.reply) : .invalidRequest(f.reply), from: app.transportId, to: sender, on: c)
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
            reply(
                MediaMessage.mediaStatus(MediaStatusMessage(requestId: r.requestId, status: app.player.status(at: t))), from: app.transportId, to: sender, on: c
            )
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
        case .userAction(let r): result = app.player.userAction(r, now: t)
        case .setVolume(let r): result = app.player.setVolume(r, now: t)
        case .editTracksInfo(let r): result = app.player.editTracksInfo(r, now: t)
        case .editAudioTracks(let r): result = app.player.editAudioTracks(r, now: t)
        case .skipAd(let r): result = app.player.skipAd(r, now: t)
        case .queueInsert(let r): result = app.player.queueInsert(r, now: t)
        case .queueUpdate(let r): result = app.player.queueUpdate(r, now: t)
        case .queueRemove(let r): result = app.player.queueRemove(r, now: t)
        case .queueReorder(let r): result = app.player.queueReorder(r, now: t)
        case .queueNext(let r): result = app.player.jump(r, by: 1, now: t)
        case .queuePrev(let r): result = app.player.jump(r, by: -1, now: t)
        case .queueShuffle(let r): result = app.player.queueShuffle(r, now: t)
        case .queueGetItemIDs(let r):
            answerQueueRead(app.player.queueItemIDs(r).map(MediaMessage.queueItemIDs), app: app, to: sender, on: c)
            return
        case .queueGetItems(let r):
            answerQueueRead(app.player.queueItems(r).map(MediaMessage.queueItems), app: app, to: sender, on: c)
            return
        case .unknown(let type, let payload):
            logger.info("unknown media request", metadata: ["cast.type": "\(type)"])
            invalidRequest(payload["requestId"]?.intValue, .invalidCommand, to: sender, on: c, ns: .media)
            return
        case .mediaStatus, .invalidPlayerState, .loadFailed, .loadCancelled, .invalidRequest, .error, .queueItemIDs, .queueItems, .queueChange:
            invalidRequest(request.requestId, .invalidCommand, to: sender, on: c, ns: .media)
            return
        }
        let changes = app.player.takeQueueChanges()
        running = app
        // The queue's changes go first, so a sender's queue is up to date when the status
        // that answers its request arrives.
        broadcastQueueChanges(changes)
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
