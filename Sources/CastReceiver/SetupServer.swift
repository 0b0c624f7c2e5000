// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// The device's local setup API, reduced to what senders read: `GET /setup/eureka_info`
/// answers the friendly name, model, manufacturer and UDN as JSON, the way a Cast device does
/// on port 8008 (plain HTTP). Senders that know a device only by address (added by hand, no
/// mDNS) ask it for its name here. Runs on the receiver's event loop group.
final class SetupServer: Sendable {
    private let channel: any Channel

    private init(channel: any Channel) { self.channel = channel }

    var port: Int? { channel.localAddress?.port }

    static func start(host: String, port: Int, info: SetupInfo, group: any EventLoopGroup) async throws -> SetupServer {
        let body = info.json
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(SetupHandler(body: body))
                }
            }
            .bind(host: host, port: port).get()
        return SetupServer(channel: channel)
    }

    func stop() async { try? await channel.close().get() }
}

/// What `/setup/eureka_info` tells about the device.
struct SetupInfo: Sendable {
    var name: String
    var model: String
    var uuid: String

    var json: [UInt8] {
        let object: [String: Any] = [
            "name": name,
            "ssdp_udn": uuid,
            "device_info": ["model_name": model, "manufacturer": "CastDeck (simulated)"],
        ]
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8))
    }
}

private final class SetupHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    let body: [UInt8]

    init(body: [UInt8]) { self.body = body }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else { return }
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        let found = head.method == .GET && path == "/setup/eureka_info"
        let payload = found ? body : Array("Not Found\n".utf8)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: found ? "application/json" : "text/plain")
        headers.add(name: "Content-Length", value: "\(payload.count)")
        headers.add(name: "Connection", value: "close")
        let responseHead = HTTPResponseHead(version: head.version, status: found ? .ok : .notFound, headers: headers)
        context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: payload)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }
}
