// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

// CastStreaming: the Cast Streaming protocol Chrome's tab mirroring uses (issue 33;
// docs/mirroring.md), for both ends: CastDeck's sender (`castctl mirror`) and the simulator's
// receiver. No Cast channel I/O here: OFFER and ANSWER go out and come in through closures.
//
//   StreamingMessages   OFFER / ANSWER on urn:x-cast:com.google.cast.webrtc, as JSONValue
//   RTPPacket           the RTP header with Cast's own payload header (key flag, frame id,
//                       packet id, max packet id, reference frame id, adaptive latency)
//   FrameCrypto         AES-128-CTR per frame, nonce = aesIvMask XOR frame id (bytes 8–11)
//   RTCP                sender report, receiver report, Cast feedback (ACK / NACK), PLI,
//                       receiver reference time; one compound packet parsed or built
//   FrameIDs            8-bit frame ids on the wire widened to the full counter
//   FrameAssembler      the receiver's collector: packets → frames, what is missing
//   StreamSender        one stream's sending side: packets, retransmission, SR, loss figure
//   UDPEndpoint         one NIO datagram socket (RTP and RTCP share it, as Cast does)
//   StreamingReceiver   the receiver's session: decrypt, assemble, feedback, frames out
//   StreamingSender     the sender's session: video and/or audio streams on one socket,
//                       RTCP handed to each by SSRC, sender reports for each
//   AudioClock          audio RTP times counted in samples (not by the clock)
//   MirrorSession       OFFER (VP8 and/or Opus) → ANSWER → encoders → sender, renegotiation

import CastProtocol

/// Names and numbers both ends agree on.
public enum CastStreamingIDs {
    /// The namespace OFFER and ANSWER travel on.
    public static let namespace = CastNamespace.webrtcURN
    /// Chrome's mirroring receiver for picture and sound.
    public static let mirroringApp = "0F5096E8"
    /// The mirroring receiver for sound alone (speakers, `castctl mirror --audio-only`).
    public static let audioMirroringApp = "85CDB22F"
    /// RTP payload types Chrome offers (the receiver ignores them beyond the ANSWER).
    public static let videoPayloadType: UInt8 = 96
    public static let audioPayloadType: UInt8 = 127
    /// Video's RTP clock (90 kHz); audio's is its sample rate (Opus: 48 kHz).
    public static let videoClockRate = 90_000
    public static let audioClockRate = 48_000
    /// The largest RTP packet sent: an Ethernet MTU less the IPv4 and UDP headers.
    public static let maxPacketSize = 1500 - 20 - 8
}

/// A malformed or unexpected packet or message, said plainly.
public struct CastStreamingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
