// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

// CastProtocolNIO: CastProtocol's framing as one SwiftNIO handler, the one place both the
// sender and the simulated receiver get their codec from (they may not import each other).
//
//   TLS bytes ──▶ CastFramingHandler ──▶ CastMessage ──▶ connection
//   connection ──▶ CastMessage ──▶ CastFramingHandler ──▶ TLS bytes
//
// A corrupt stream (oversize or empty frame, broken protobuf) is a typed CastProtocolError
// sent down the pipeline; the owner closes that connection.
