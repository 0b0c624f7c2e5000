// SPDX-License-Identifier: GPL-3.0-or-later
// CastClient: the sender side of the Cast protocol.
//
//     CastSession (actor) ── session manager: launch / join / leave / stop / reconnect / resume
//       ├── CastConnection (actor) ── TLS + framing (NIO), heartbeat, virtual connections,
//       │                             request ids with per-request timeouts
//       ├── RemoteMediaClient (actor) ── media namespace, status/metadata observers; the one
//       │                                 copy of the media status (MediaStatusSnapshot, with
//       │                                 the one position rule castctl and the window share)
//       └── CastChannel (actor) ── app-defined `urn:x-cast:` namespaces
//
//   CastClientProber ── answers CastDiscovery's DeviceProber ("connect + GET_STATUS")
//
// Every public value is Sendable; state is published as AsyncStreams (see Broadcast and
// PublishedValue: the owner holds each value once; streams start from it).
// Logging: CastClientConfiguration.logger (castdeck and castctl bootstrap swift-log).
// DeviceAddress comes from CastCore (re-exported), shared with CastDiscovery.
@_exported import CastCore
import NIOCore
import NIOPosix
import NIOSSL
import Logging
