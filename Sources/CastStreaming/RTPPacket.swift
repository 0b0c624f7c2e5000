// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// One Cast RTP packet: the 12-byte RTP header (version 2, no padding, no RTP extension, no
/// CSRC; the marker bit on a frame's last packet) followed by Cast's payload header:
///
///     byte 12   K (key frame) | R (reference frame id follows) | 6 bits: extension count
///     byte 13   frame id, low 8 bits
///     14–15     packet id within the frame
///     16–17     max packet id (the frame's last packet)
///     [18]      reference frame id, low 8 bits, when R
///     then each extension: 6 bits type, 10 bits size, the data (type 1: playout delay in ms)
///     then the payload: a piece of the encrypted frame
public struct RTPPacket: Sendable, Equatable {
    public var payloadType: UInt8
    public var sequence: UInt16
    public var rtpTimestamp: UInt32
    public var ssrc: UInt32
    public var isKeyFrame: Bool
    /// The frame id's low 8 bits (`FrameIDs` widens it).
    public var frameID: UInt8
    public var packetID: UInt16
    public var maxPacketID: UInt16
    public var referenceFrameID: UInt8?
    /// The adaptive latency extension: a new playout delay in milliseconds.
    public var playoutDelayMs: UInt16?
    public var payload: [UInt8]

    public init(
        payloadType: UInt8, sequence: UInt16, rtpTimestamp: UInt32, ssrc: UInt32, isKeyFrame: Bool, frameID: UInt8, packetID: UInt16,
        maxPacketID: UInt16, referenceFrameID: UInt8? = nil, playoutDelayMs: UInt16? = nil, payload: [UInt8]
    ) {
        self.payloadType = payloadType
        self.sequence = sequence
        self.rtpTimestamp = rtpTimestamp
        self.ssrc = ssrc
        self.isKeyFrame = isKeyFrame
        self.frameID = frameID
        self.packetID = packetID
        self.maxPacketID = maxPacketID
        self.referenceFrameID = referenceFrameID
        self.playoutDelayMs = playoutDelayMs
        self.payload = payload
    }

    public static let headerSize = 12 + 6
    static let adaptiveLatencyType: UInt8 = 1

    /// Whether a datagram on the shared port is RTCP rather than RTP: RTCP's packet types
    /// (200–207) sit where RTP has its marker bit and payload type, and Cast's payload types
    /// (96–127, marker or not) never reach them.
    public static func isRTCP(_ datagram: some Collection<UInt8>) -> Bool {
        guard datagram.count >= 2 else { return false }
        return (200...207).contains(datagram[datagram.index(after: datagram.startIndex)])
    }

    public var serialized: [UInt8] {
        var b: [UInt8] = [0x80, (packetID == maxPacketID ? 0x80 : 0) | (payloadType & 0x7F)]
        b.appendBE(sequence)
        b.appendBE(rtpTimestamp)
        b.appendBE(ssrc)
        let extensions: UInt8 = playoutDelayMs == nil ? 0 : 1
        b.append((isKeyFrame ? 0x80 : 0) | (referenceFrameID == nil ? 0 : 0x40) | extensions)
        b.append(frameID)
        b.appendBE(packetID)
        b.appendBE(maxPacketID)
        if let referenceFrameID { b.append(referenceFrameID) }
        if let playoutDelayMs {
            b.appendBE(UInt16(Self.adaptiveLatencyType) << 10 | 2)
            b.appendBE(playoutDelayMs)
        }
        b += payload
        return b
    }

    public init(parsing d: [UInt8]) throws(CastStreamingError) {
        guard d.count >= Self.headerSize else { throw CastStreamingError("an RTP packet of \(d.count) bytes is too short") }
        guard d[0] == 0x80 else { throw CastStreamingError("an RTP packet is not version 2 without padding, extensions and CSRCs") }
        var r = ByteReader(d, at: 1)
        let pt = r.u8() & 0x7F
        let seq = r.u16(), ts = r.u32(), ssrc = r.u32()
        let flags = r.u8()
        let fid = r.u8(), pid = r.u16(), maxPid = r.u16()
        guard pid <= maxPid else { throw CastStreamingError("an RTP packet's id \(pid) is beyond the frame's last, \(maxPid)") }
        var ref: UInt8?
        if flags & 0x40 != 0 {
            guard r.remaining >= 1 else { throw CastStreamingError("an RTP packet ends before its reference frame id") }
            ref = r.u8()
        }
        var delay: UInt16?
        for _ in 0..<Int(flags & 0x3F) {
            guard r.remaining >= 2 else { throw CastStreamingError("an RTP packet ends inside its extensions") }
            let typeAndSize = r.u16()
            let size = Int(typeAndSize & 0x3FF)
            guard r.remaining >= size else { throw CastStreamingError("an RTP packet's extension runs past its end") }
            if UInt8(typeAndSize >> 10) == Self.adaptiveLatencyType, size == 2 { delay = r.u16() } else { r.skip(size) }
        }
        self.init(
            payloadType: pt, sequence: seq, rtpTimestamp: ts, ssrc: ssrc, isKeyFrame: flags & 0x80 != 0, frameID: fid, packetID: pid,
            maxPacketID: maxPid, referenceFrameID: ref, playoutDelayMs: delay, payload: r.rest())
    }
}

/// Cuts one encrypted frame into packets of at most `CastStreamingIDs.maxPacketSize` bytes.
public enum RTPPacketizer {
    /// The payload room in each packet (header, reference frame id, one extension).
    public static let payloadRoom = CastStreamingIDs.maxPacketSize - RTPPacket.headerSize - 1 - 4

    /// The packets of a frame, sequence numbers left 0 (the sender numbers them as it sends).
    public static func packets(
        of encrypted: [UInt8], frameID: UInt32, referenceFrameID: UInt32, isKey: Bool, rtpTimestamp: UInt32, ssrc: UInt32, payloadType: UInt8,
        playoutDelayMs: UInt16? = nil
    ) -> [RTPPacket] {
        let count = max(1, (encrypted.count + payloadRoom - 1) / payloadRoom)
        precondition(count <= Int(UInt16.max), "a frame of \(encrypted.count) bytes needs more packets than Cast can number")
        return (0..<count).map { i in
            let lo = i * payloadRoom, hi = min(lo + payloadRoom, encrypted.count)
            return RTPPacket(
                payloadType: payloadType, sequence: 0, rtpTimestamp: rtpTimestamp, ssrc: ssrc, isKeyFrame: isKey,
                frameID: UInt8(truncatingIfNeeded: frameID), packetID: UInt16(i), maxPacketID: UInt16(count - 1),
                referenceFrameID: UInt8(truncatingIfNeeded: referenceFrameID), playoutDelayMs: i == 0 ? playoutDelayMs : nil,
                payload: lo < hi ? Array(encrypted[lo..<hi]) : [])
        }
    }
}

/// Widens the 8-bit frame ids of packets and feedback to the full counter: the one nearest to
/// a frame id already known (Cast never has more than 128 frames in flight).
public enum FrameIDs {
    public static func expand(_ low: UInt8, near reference: UInt32) -> UInt32 {
        let candidate = (reference & ~0xFF) | UInt32(low)
        let diff = Int64(candidate) - Int64(reference)
        if diff > 128, candidate >= 256 { return candidate - 256 }
        if diff < -128 { return candidate &+ 256 }
        return candidate
    }
}

// MARK: - Bytes

extension [UInt8] {
    mutating func appendBE(_ v: UInt16) { append(contentsOf: [UInt8(v >> 8), UInt8(v & 0xFF)]) }
    mutating func appendBE(_ v: UInt32) {
        appendBE(UInt16(v >> 16))
        appendBE(UInt16(v & 0xFFFF))
    }
    mutating func appendBE(_ v: UInt64) {
        appendBE(UInt32(v >> 32))
        appendBE(UInt32(v & 0xFFFF_FFFF))
    }
}

/// Reads big-endian fields; callers check `remaining` first.
struct ByteReader {
    let bytes: [UInt8]
    var at: Int
    init(_ bytes: [UInt8], at: Int = 0) {
        self.bytes = bytes
        self.at = at
    }
    var remaining: Int { bytes.count - at }
    mutating func u8() -> UInt8 {
        defer { at += 1 }
        return bytes[at]
    }
    mutating func u16() -> UInt16 { UInt16(u8()) << 8 | UInt16(u8()) }
    mutating func u32() -> UInt32 { UInt32(u16()) << 16 | UInt32(u16()) }
    mutating func u64() -> UInt64 { UInt64(u32()) << 32 | UInt64(u32()) }
    mutating func skip(_ n: Int) { at += n }
    mutating func rest() -> [UInt8] {
        defer { at = bytes.count }
        return Array(bytes[at...])
    }
}
