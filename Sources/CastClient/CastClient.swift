// SPDX-License-Identifier: GPL-3.0-or-later
// CastClient: the sender side of the Cast protocol.
//
//     CastSession (actor) ── session manager: launch / join / leave / stop / reconnect / resume
//       ├── CastConnection (actor) ── TLS + framing (NIO), heartbeat, virtual connections,
//       │                             request ids with per-request timeouts
//       ├── RemoteMediaClient (actor) ── media namespace, status/metadata observers,
//       │                                 interpolated stream position
//       └── CastChannel (actor) ── app-defined `urn:x-cast:` namespaces
//
// Every public value is Sendable; state is published as AsyncStreams (see Broadcast).
import NIOCore
import NIOPosix
import NIOSSL
import Logging
