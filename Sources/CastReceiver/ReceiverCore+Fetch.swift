// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol
import Foundation
import NIOCore

/// `--fetch-media`: a LOAD is held while the media and its text tracks are fetched
/// (``MediaFetcher``), then either loaded (with the duration read from the media when the
/// LOAD had none) or failed as a device fails it: LOAD_FAILED with a `detailedErrorCode`
/// to the asker, and IDLE with idleReason ERROR to every sender of the app.
extension ReceiverCore {
    func fetchMediaThenLoad(_ request: LoadRequest, message: CastMessage, from c: SenderConnection) {
        let connection = NIOLoopBound(c, eventLoop: loop)
        let loop = self.loop
        let (model, avReceiver, decode, logger) = (config.model, config.avReceiver, config.decodeFirstFrame, config.logger)
        logger.info("fetching media before LOAD", metadata: ["url": "\(request.media.contentUrl ?? request.media.contentId)"])
        Task {
            let clock = ContinuousClock()
            let began = clock.now
            var outcome = await MediaFetcher.check(request.media, model: model, avReceiver: avReceiver)
            let fetched = clock.now
            if decode, case .playable = outcome {
                if let failure = await FirstFrame.decode(request.media) {
                    outcome = .failed(detailedErrorCode: MediaFetcher.mediaSourceNotSupported, reason: failure)
                }
                logger.notice(
                    "media fetched and first frame decoded",
                    metadata: [
                        "fetch": "\(FirstFrame.seconds(fetched - began))", "first-frame": "\(FirstFrame.seconds(clock.now - fetched))",
                        "at": "\(String(format: "%.4f", Date().timeIntervalSince1970))",
                    ])
            }
            loop.execute {
                self.finishFetch(outcome, request: request, message: message, from: connection.value)
            }
        }
    }

    private func finishFetch(_ outcome: MediaFetcher.Outcome, request: LoadRequest, message: CastMessage, from c: SenderConnection) {
        switch outcome {
        case .playable(let duration):
            var r = request
            if r.media.duration == nil, let duration { r.media.duration = duration }
            let again = CastMessage(source: message.sourceID, destination: message.destinationID, MediaMessage.load(r))
            handleMedia(again, from: c, fetched: true)
        case .failed(let code, let reason):
            config.logger.notice("LOAD failed", metadata: ["detailedErrorCode": "\(code)", "reason": "\(reason)"])
            tick()
            guard var app = running else { return }
            let (_, interrupted) = app.player.load(request, now: now)
            app.player.failLoad()
            running = app
            if !interrupted.isEmpty { broadcastMediaStatus(interrupted) }
            reply(
                MediaMessage.loadFailed(ErrorReply(requestId: request.requestId, detailedErrorCode: code)), from: app.transportId, to: message.sourceID,
                on: c)
            broadcastMediaStatus(app.player.status(at: now))
        }
    }
}
