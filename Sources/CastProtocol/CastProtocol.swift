// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

// CastProtocol: the Cast V2 wire, as values. No sockets, no event loops (CastProtocolNIO
// adds those), so the fuzzer and the decode benchmark build it alone.
//
//   bytes ──▶ CastFrameDecoder (Framing)        4-byte big-endian length + body, ≤ 64 KiB
//               │
//               ▼
//           CastMessage (CastMessage, Proto/)    the protobuf envelope: source, destination,
//               │                                namespace, STRING or BINARY payload
//               ▼  decoded()
//           NamespacedMessage (MessageCoding)    by namespace (Namespaces: CastNamespace)
//               ├── ConnectionMessage, HeartbeatMessage, ReceiverMessage   (Models/Platform)
//               ├── MediaMessage                                           (Models/MediaMessages)
//               └── custom(namespace, payload)
//
//   JSON: JSONParser → JSONValue → JSONTreeDecoder (Codable), tolerant of unknown fields
//   and open enums (WireEnum); CastJSON encodes/decodes a namespace's messages.
//   Models/: what messages carry: MediaStatus, MediaInformation, tracks and TextTrackStyle,
//   ad breaks, queue items, Volume, receiver applications.
//   RequestID: the ids senders put on requests. Errors: CastProtocolError.
//
// Each message enum's wire `type` strings sit beside its cases, in the file of the enum.
