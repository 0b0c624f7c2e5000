// SPDX-License-Identifier: GPL-3.0-or-later
// CastClient: the sender side of the Cast protocol.
//
//     CastSession (actor) ── session manager: launch / join / leave / stop / reconnect / resume;
//       │                    the controller of the receiver and connection namespaces
//       ├── CastConnection (actor) ── TLS + framing (NIO), heartbeat, device authentication,
//       │                             virtual connections, requests with timeouts, and the
//       │                             routing table namespace → NamespaceController
//       ├── RemoteMediaClient (actor) ── the media namespace's controller: commands, and the
//       │                                 status published as MediaStatusSnapshot values (the
//       │                                 position rule, and the ad playing: AdPlayback)
//       ├── CastChannel (actor) ── one per app-defined `urn:x-cast:` namespace
//       └── GroupController (actor) ── the multizone namespace: a speaker group's members as
//                                       one `CastGroup?` (CastSession+Group.swift)
//
// One concurrency model: a session picks one NIO event loop, and that loop is the executor
// of the session, its media client, its channels and every connection it opens. Frames are
// read on the loop and handed to the connection synchronously (CastBridgeHandler), routed
// to their namespace's controller synchronously (`assumeIsolated`: same executor), and only
// then is the request they answer resumed. So there is one inbound route, no locks around
// session or media state, and a command's caller wakes once, from the loop, with the state
// already applied. Nothing outside reads that state under a lock: observers take values
// from streams (statusUpdates, queueUpdates, receiverStatusUpdates, stateUpdates) and keep
// the latest; Broadcast and PublishedValue are the only locks (the stream plumbing).
//
//   CastClientProber ── answers CastDiscovery's DeviceProber ("connect + GET_STATUS")
//   StreamTransfer ── moves what plays from one session's device to another's (a
//                     PlaybackSnapshot read from the source, loaded on the target, then the
//                     source stopped); castctl move and the window's Move to… call it
//
// Received messages are read loosely (CastProtocol leaves out what it cannot read and says
// what; the connection logs it at debug level), so a real device's odd reply still answers
// its request; a command fails only when what it needs is missing (an app without a
// transport id cannot be joined).
//
// Logging: CastClientConfiguration.logger (castdeck and castctl bootstrap swift-log).
// DeviceAddress comes from CastCore (re-exported), shared with CastDiscovery.
@_exported import CastCore
import Logging
import NIOCore
import NIOPosix
import NIOSSL
