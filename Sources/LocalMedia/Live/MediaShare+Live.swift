// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol

/// A live stream shared with one device: the `MediaInformation` to LOAD (streamType LIVE,
/// `video/mp4`, no duration) and the token to revoke when it ends.
public struct LiveCast: Sendable {
    public var media: MediaInformation
    public var stream: LiveStream
    public var token: String
    public var url: String
}

extension MediaShare {
    /// Shares `stream` with `device` from the server on `localAddress` (started on first use).
    /// `name` ends the URL; `title` is what the device shows.
    public func publish(live stream: LiveStream, name: String, title: String, device: String, localAddress: String) async throws(LocalMediaError) -> LiveCast {
        let server = try await server(on: localAddress)
        let item = server.share(live: stream, name: name, peer: device)
        let media = MediaInformation(
            contentId: item.url, contentUrl: item.url, streamType: .live, contentType: stream.contentType,
            metadata: MediaMetadata(metadataType: .generic, title: title))
        return LiveCast(media: media, stream: stream, token: item.token, url: item.url)
    }

    /// Ends a live share: the URL answers 404 from now on, every client's response ends, and
    /// a server with nothing left to serve stops. The encoder is the caller's to stop.
    public func end(_ cast: LiveCast) async {
        cast.stream.finish()
        for (address, server) in servers {
            server.revoke([cast.token])
            if server.shareCount == 0 {
                servers[address] = nil
                await server.stop()
            }
        }
    }
}
