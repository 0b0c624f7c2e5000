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
//               ├── MultizoneMessage: a speaker group's members            (Models/Multizone)
//               └── custom(namespace, payload)
//
//   JSON: JSONParser → JSONValue → JSONTreeDecoder (Codable), tolerant of unknown fields
//   and open enums (WireEnum); a part it cannot read is left out and named, the rest used
//   (TolerantReading, Models/Reading+RealDevices: what real devices send, protocol.md §17);
//   CastJSON encodes/decodes a namespace's messages. The media
//   status and common commands also take a fast path: a one-pass reader (JSONReadable) and a
//   direct writer (JSONWritable), each checked against the Codable path.
//   Models/: what messages carry: MediaStatus, MediaInformation, tracks and TextTrackStyle,
//   ad breaks, queue items, Volume, receiver applications.
//   RequestID: the ids senders put on requests. Errors: CastProtocolError.
//
// A wire model is declared once:
//
//   Models/X.swift   the struct, its stored properties = its members on the wire, marked
//       │            `// wire: read write` (or `message`, `codable`, `box T`)
//       ▼  scripts/gen-wire.py (lint.sh and WireGeneratedCodeTests fail when it was not run)
//   Models/Generated/X.generated.swift   the one-pass reader, the direct writer, Codable
//                                        where a member has a default or a second spelling,
//                                        and the accessors of copy-on-write models
//
// Swift synthesizes Codable from the same stored properties, so a new member is one line in
// the declaration and one run of the script. Hand-written code beside a declaration is only
// what a model means (merging, display titles, open enums), never how it is read or written.
//
// Each message enum's wire `type` strings sit beside its cases, in the file of the enum.
