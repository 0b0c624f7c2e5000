// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// Cast Streaming on the simulator (docs/mirroring.md): while a mirroring app runs, an OFFER on
// urn:x-cast:com.google.cast.webrtc is answered by a `StreamingReceiver` on a fresh UDP port
// (a new OFFER, as after a size change, replaces it); what it receives goes to the
// `MirrorFrameSink` of `--mirror-output`. Ending the app ends the session.

import CastProtocol
import CastStreaming
import Foundation
import NIOCore

extension ReceiverCore {
    /// The running Cast Streaming session and where its frames go.
    final class Mirroring: @unchecked Sendable {
        let receiver: StreamingReceiver
        let sink: MirrorFrameSink?
        init(receiver: StreamingReceiver, sink: MirrorFrameSink?) {
            self.receiver = receiver
            self.sink = sink
        }
        func close() {
            receiver.close()
            sink?.close()
        }
    }

    func handleStreaming(_ message: CastMessage, from c: SenderConnection) {
        guard let app = running else { return }
        let value = message.withUTF8Payload { try? JSONValue(parsing: $0) } ?? nil
        guard let value, value["type"]?.stringValue == "OFFER" else {
            logger.info("Cast Streaming message not handled", metadata: ["cast.type": "\(value?["type"]?.stringValue ?? "unreadable")"])
            return
        }
        let sender = message.sourceID
        let connection = NIOLoopBound(c, eventLoop: loop)
        // Called on the loop only.
        let answerTo: @Sendable (StreamingAnswer) -> Void = { [self] answer in
            let reply = CastMessage(source: app.transportId, destination: sender, namespace: CastStreamingIDs.namespace, utf8: CastJSON.encode(answer.json))
            send(reply, to: connection.value)
        }
        let offer: StreamingOffer
        do {
            offer = try StreamingOffer(json: value)
        } catch {
            logger.info("refused an OFFER", metadata: ["reason": "\(error.description)"])
            return answerTo(StreamingAnswer(seqNum: value["seqNum"]?.intValue ?? 0, udpPort: nil, sendIndexes: [], ssrcs: [], error: error.description))
        }
        mirroring?.close()
        mirroring = nil
        mirrorSessions += 1
        let sink = config.mirrorOutput.map { MirrorFrameSink(directory: $0, session: mirrorSessions) }
        let host = config.host, loop = self.loop, codecs = config.mirrorCodecs ?? StreamingReceiver.playable
        Task {
            let (answer, receiver) = await StreamingReceiver.answer(offer, host: host, playable: codecs) { frame in sink?.take(frame) }
            loop.execute { [self] in
                guard let receiver, running?.sessionId == app.sessionId else {
                    receiver?.close()
                    return answerTo(answer)
                }
                mirroring = Mirroring(receiver: receiver, sink: sink)
                logger.info("mirroring", metadata: ["cast.udp.port": "\(answer.udpPort ?? 0)", "cast.streams": "\(answer.sendIndexes)"])
                answerTo(answer)
            }
        }
    }

    /// Ends the Cast Streaming session, if any (the app stopped).
    func endMirroring() {
        mirroring?.close()
        mirroring = nil
    }
}

extension ReceiverApp {
    /// The mirroring receiver for sound alone (Chrome's audio-only tab casting, speakers).
    public static let audioMirroring = ReceiverApp(
        appId: CastStreamingIDs.audioMirroringApp, displayName: "Chrome Mirroring",
        namespaces: [CastStreamingIDs.namespace, CastNamespace.mediaURN, "urn:x-cast:com.google.cast.debug"])

    /// Whether this app speaks Cast Streaming.
    var mirrors: Bool { appId == CastStreamingIDs.mirroringApp || appId == CastStreamingIDs.audioMirroringApp }
}
