// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
//
// castdeck-bench-receiver: how fast the simulated receiver answers, over real TLS on
// loopback. The baseline ("peer") in the same run is the cheapest exchange any Cast
// receiver does, PING → PONG; the other figures are reported as ratios to it:
//   - media GET_STATUS round trip with media loaded (JSON in, status built, JSON out)
//   - PAUSE/PLAY with 100 senders attached: until all 100 have the new status
//   - a new sender: TLS handshake + CONNECT + GET_STATUS
// Medians of many samples; nothing is asserted.

import CastProtocol
import CastReceiver
import Foundation
import NIOCore
import NIOPosix
import NIOSSL

final class BenchSender: @unchecked Sendable {
    let channel: any Channel
    let messages: AsyncStream<CastMessage>
    private var iterator: AsyncStream<CastMessage>.Iterator

    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        var decoder = CastFrameDecoder()
        let continuation: AsyncStream<CastMessage>.Continuation
        init(_ c: AsyncStream<CastMessage>.Continuation) { continuation = c }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var b = unwrapInboundIn(data)
            decoder.append(b.readBytes(length: b.readableBytes) ?? [])
            while let m = try? decoder.nextMessage() { continuation.yield(m) }
        }
        func channelInactive(context: ChannelHandlerContext) { continuation.finish() }
    }

    init(port: Int, group: any EventLoopGroup, context: NIOSSLContext) async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: CastMessage.self)
        channel = try await ClientBootstrap(group: group)
            .channelInitializer { ch in
                ch.eventLoop.makeCompletedFuture {
                    try ch.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: nil))
                    try ch.pipeline.syncOperations.addHandler(Handler(continuation))
                }
            }.connect(host: "127.0.0.1", port: port).get()
        messages = stream
        iterator = stream.makeAsyncIterator()
    }

    func send<M: CastJSONMessage>(_ m: M, to destination: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(bytes: try CastMessage(source: "sender-0", destination: destination, m).framed())).get()
    }

    /// Reads until a message satisfies `predicate`.
    func await(_ predicate: @Sendable (CastMessage) -> Bool) async throws -> CastMessage {
        while let m = await iterator.next() {
            if predicate(m) { return m }
        }
        throw CancellationError()
    }
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func measure(_ n: Int, _ body: () async throws -> Void) async throws -> Double {
    var samples: [Double] = []
    for _ in 0..<n {
        let start = ContinuousClock.now
        try await body()
        let d = start.duration(to: .now)
        samples.append(Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12)
    }
    return median(samples)
}

func isMediaStatus(_ m: CastMessage, requestId: Int) -> Bool {
    guard m.namespace == CastNamespace.mediaURN, case .media(.mediaStatus(let s))? = try? m.decoded() else { return false }
    return s.requestId == requestId
}

var config = ReceiverConfiguration()
config.port = 0
config.clock = ManualClock()
config.logger.logLevel = .error
let server = CastReceiverServer(configuration: config)
try await server.start()
let port = server.port!
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
var tls = TLSConfiguration.makeClientConfiguration()
tls.certificateVerification = .none
let context = try NIOSSLContext(configuration: tls)

let main = try await BenchSender(port: port, group: group, context: context)
try await main.send(ConnectionMessage.connect(ConnectRequest()), to: CastEndpoint.receiver)
try await main.send(ReceiverMessage.launch(LaunchRequest(requestId: 1, appId: CastAppID.defaultMediaReceiver)), to: CastEndpoint.receiver)
let launched = try await main.await { m in
    if case .receiver(.receiverStatus(let s))? = try? m.decoded() { return s.requestId == 1 }
    return false
}
guard case .receiver(.receiverStatus(let rs)) = try launched.decoded(), let transport = rs.status.runningApp?.transportId else {
    fatalError("the receiver did not launch the Default Media Receiver")
}
try await main.send(ConnectionMessage.connect(ConnectRequest()), to: transport)
let media = MediaInformation(
    contentId: "https://example.com/movie.mp4", contentType: "video/mp4",
    metadata: MediaMetadata(metadataType: .movie, title: "Sintel", images: [CastImage(url: "https://example.com/p.jpg")]),
    duration: 888,
    tracks: [MediaTrack(trackId: 1, type: .text, subtype: .subtitles, trackContentId: "https://example.com/en.vtt", language: "en")])
try await main.send(MediaMessage.load(LoadRequest(requestId: 2, media: media)), to: transport)
_ = try await main.await { isMediaStatus($0, requestId: 2) }

var rid = 100
let ping = try await measure(500) {
    try await main.send(HeartbeatMessage.ping, to: CastEndpoint.receiver)
    _ = try await main.await { $0.namespace == CastNamespace.heartbeatURN }
}
let getStatus = try await measure(500) {
    rid += 1
    let id = rid
    try await main.send(MediaMessage.getStatus(MediaSessionRequest(requestId: id, mediaSessionId: 1)), to: transport)
    _ = try await main.await { isMediaStatus($0, requestId: id) }
}
let newSender = try await measure(50) {
    let s = try await BenchSender(port: port, group: group, context: context)
    try await s.send(ConnectionMessage.connect(ConnectRequest()), to: CastEndpoint.receiver)
    try await s.send(ReceiverMessage.getStatus(ReceiverStatusRequest(requestId: 1)), to: CastEndpoint.receiver)
    _ = try await s.await { $0.namespace == CastNamespace.receiverURN }
    try await s.channel.close()
}

var others: [BenchSender] = []
for _ in 0..<99 {
    let s = try await BenchSender(port: port, group: group, context: context)
    try await s.send(ConnectionMessage.connect(ConnectRequest()), to: CastEndpoint.receiver)
    try await s.send(ConnectionMessage.connect(ConnectRequest()), to: transport)
    // A round trip, so this sender's CONNECT is in before the first measured change.
    try await s.send(MediaMessage.getStatus(MediaSessionRequest(requestId: 1, mediaSessionId: nil)), to: transport)
    _ = try await s.await { isMediaStatus($0, requestId: 1) }
    others.append(s)
}
var paused = false
let fanOut = try await measure(50) {
    rid += 1
    let id = rid
    paused.toggle()
    let request = MediaSessionRequest(requestId: id, mediaSessionId: 1)
    try await main.send(paused ? MediaMessage.pause(request) : MediaMessage.play(request), to: transport)
    _ = try await main.await { isMediaStatus($0, requestId: id) }
    try await withThrowingTaskGroup(of: Void.self) { tasks in
        for s in others { tasks.addTask { _ = try await s.await { isMediaStatus($0, requestId: 0) } } }
        try await tasks.waitForAll()
    }
}

func row(_ name: String, _ us: Double) {
    let label = name.padding(toLength: 48, withPad: " ", startingAt: 0)
    print(label + String(format: "%11.1f µs %8.1f× PING", us, us / ping))
}
print("castdeck-bench-receiver (TLS 1.2, loopback, medians)")
row("PING → PONG (baseline)", ping)
row("media GET_STATUS round trip", getStatus)
row("PAUSE/PLAY until 100 senders have the status", fanOut)
row("new sender: TLS + CONNECT + GET_STATUS", newSender)
// For the summary table: each exchange against the PING → PONG floor of the same connection.
func result(_ name: String, _ us: Double) {
    print(
        #"bench-result: {"area":"receiver","name":"\#(name)","ours":\#(us),"peer":\#(ping),"peer_name":"PING → PONG on the same connection","unit":"µs","better":"lower"}"#
    )
}
result("media GET_STATUS round trip", getStatus)
result("PAUSE/PLAY until 100 senders have the status", fanOut)
for s in others { try? await s.channel.close() }
try? await main.channel.close()
await server.stop()
try await group.shutdownGracefully()
