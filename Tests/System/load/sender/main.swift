// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

// One CastClient sender of the load test (Tests/System/run-load.sh): a single CastConnection
// to the receiver, joined to the app that runs there, pipelining COMMANDS media requests with
// up to WINDOW in flight at once. Each request carries a value only it sets (a stream volume
// level unique to this sender and index, or PAUSE/PLAY), so the reply CastConnection matches
// to it must carry its requestId and show that value: anything else is a reply matched to the
// wrong request. Prints one JSON line: {"sender":…,"sent":…,"answered":…,"lost":…,"wrong":…}.
//
//     castdeck-load-sender HOST:PORT SENDER_INDEX COMMANDS [WINDOW]
//
// SENDER_INDEX (0…99) keeps the volume levels of different senders apart.
import CastClient
import CastProtocol
import Foundation
import Synchronization

final class Tally: Sendable {
    let counts = Mutex((sent: 0, answered: 0, lost: 0, wrong: 0))
    let firstProblem = Mutex<String?>(nil)
    func note(_ problem: String) { firstProblem.withLock { if $0 == nil { $0 = problem } } }
}

/// The request id CastConnection gave a request (read back from the `make` closure).
final class IDBox: Sendable {
    let value = Mutex(0)
}

@main
struct LoadSender {
    static func fail(_ text: String) -> Never {
        FileHandle.standardError.write(Data("castdeck-load-sender: \(text)\n".utf8))
        exit(1)
    }

    static func main() async {
        let args = CommandLine.arguments
        guard args.count >= 4, let device = try? DeviceAddress(parsing: args[1]), let index = Int(args[2]), (0..<100).contains(index),
            let commands = Int(args[3]), commands > 0
        else { fail("usage: castdeck-load-sender HOST:PORT SENDER_INDEX COMMANDS [WINDOW]") }
        let window = args.count >= 5 ? max(1, Int(args[4]) ?? 4) : 4
        var configuration = CastClientConfiguration()
        configuration.sessionStore = nil
        configuration.reconnect = .disabled
        let connection: CastConnection
        let transport: String
        var mediaSession: Int
        do {
            connection = try await CastConnection.open(to: device, configuration: configuration)
            let reply = try await connection.request("GET_STATUS", to: CastEndpoint.receiver) {
                ReceiverMessage.getStatus(ReceiverStatusRequest(requestId: $0))
            }
            guard case .receiver(.receiverStatus(let r)) = reply,
                let app = r.status.applications?.first(where: { $0.isIdleScreen != true })
            else { fail("no app runs on \(device): cast something first") }
            transport = app.transportId
            try await connection.connectVirtual(to: transport)
            let media = try await connection.request("GET_STATUS", to: transport) {
                MediaMessage.getStatus(MediaSessionRequest(requestId: $0, mediaSessionId: nil))
            }
            guard case .media(.mediaStatus(let m)) = media, let s = m.status.first else { fail("no media session on \(device)") }
            mediaSession = s.mediaSessionId
        } catch {
            fail("cannot join the app on \(device): \(error)")
        }
        let tally = Tally()
        let session = mediaSession
        await withTaskGroup(of: Void.self) { group in
            for lane in 0..<window {
                group.addTask {
                    var i = lane
                    while i < commands {
                        await one(i)
                        i += window
                    }
                }
            }
            @Sendable func one(_ i: Int) async {
                let box = IDBox()
                // Levels unique to (sender, i): index * 1e-2 plus i * 1e-8, all below 1.
                let level = (Double(index) * 1_000_000 + Double(i)) / 100_000_000
                let kind = i % 4
                tally.counts.withLock { $0.sent += 1 }
                do {
                    let reply = try await connection.request(kind == 2 ? "PAUSE" : kind == 3 ? "PLAY" : "SET_VOLUME", to: transport) { id in
                        box.value.withLock { $0 = id }
                        switch kind {
                        case 2: return MediaMessage.pause(MediaSessionRequest(requestId: id, mediaSessionId: session))
                        case 3: return MediaMessage.play(MediaSessionRequest(requestId: id, mediaSessionId: session))
                        default: return MediaMessage.setVolume(SetVolumeRequest(requestId: id, mediaSessionId: session, volume: Volume(level: level)))
                        }
                    }
                    let sentID = box.value.withLock { $0 }
                    guard case .media(.mediaStatus(let m)) = reply, let s = m.status.first else {
                        tally.counts.withLock {
                            $0.answered += 1
                            $0.wrong += 1
                        }
                        tally.note("command \(i): reply \(reply) is not a MEDIA_STATUS")
                        return
                    }
                    let right: Bool =
                        switch kind {
                        case 2: s.playerState == .paused
                        case 3: s.playerState == .playing || s.playerState == .buffering
                        default: s.volume?.level == level
                        }
                    tally.counts.withLock {
                        $0.answered += 1
                        if m.requestId != sentID || !right { $0.wrong += 1 }
                    }
                    if m.requestId != sentID || !right {
                        tally.note(
                            "command \(i) (request \(sentID)): reply has requestId \(m.requestId.map(String.init) ?? "none"), state \(s.playerState), volume \(s.volume?.level ?? -1), expected \(kind == 2 ? "PAUSED" : kind == 3 ? "PLAYING" : "\(level)")"
                        )
                    }
                } catch {
                    tally.counts.withLock { $0.lost += 1 }
                    tally.note("command \(i): \(error)")
                }
            }
        }
        await connection.close()
        let c = tally.counts.withLock { $0 }
        let problem = tally.firstProblem.withLock { $0 }
        var line = #"{"sender":"castclient-\#(index)","sent":\#(c.sent),"answered":\#(c.answered),"lost":\#(c.lost),"wrong":\#(c.wrong)"#
        if let problem { line += #","first_problem":\#(String(reflecting: problem))"# }
        print(line + "}")
        exit(c.lost == 0 && c.wrong == 0 && c.answered == commands ? 0 : 1)
    }
}
