// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// One Opus packet as the encoder gave it: one Cast Streaming audio frame.
public struct EncodedAudioPacket: Sendable, Equatable {
    public var data: [UInt8]
    /// Its length in 48 kHz samples (per channel), read from the packet's TOC byte.
    public var samples: Int
    public init(data: [UInt8], samples: Int) {
        self.data = data
        self.samples = samples
    }

    /// The samples (at 48 kHz) an Opus packet holds, from its TOC byte and frame count
    /// (RFC 6716 §3.1); nil for an empty or malformed packet.
    public static func opusSamples(_ packet: some Collection<UInt8>) -> Int? {
        guard let toc = packet.first else { return nil }
        let config = Int(toc >> 3)
        let perFrame: Int
        switch config {
        case 0...11: perFrame = [480, 960, 1920, 2880][config % 4]  // SILK: 10, 20, 40, 60 ms
        case 12...15: perFrame = [480, 960][config % 2]  // hybrid: 10, 20 ms
        default: perFrame = [120, 240, 480, 960][config % 4]  // CELT: 2.5, 5, 10, 20 ms
        }
        let frames: Int
        switch toc & 3 {
        case 0: frames = 1
        case 1, 2: frames = 2
        default:
            guard packet.count >= 2 else { return nil }
            frames = Int(packet[packet.index(after: packet.startIndex)] & 0x3F)
        }
        let samples = perFrame * frames
        // At most 120 ms in one packet.
        return frames > 0 && samples <= 5760 ? samples : nil
    }
}

/// Reads an Ogg Opus stream (RFC 3533 pages, RFC 7845 mapping) as it arrives, in pieces of
/// any size: checks each page's capture pattern, version and CRC, joins packets that span
/// pages, checks that the first packet is `OpusHead` and skips it and `OpusTags`, and hands
/// out the audio packets. One logical stream only (what ffmpeg writes).
public struct OggOpusReader: Sendable {
    public enum ReadError: Error, Equatable, CustomStringConvertible {
        case notOgg
        case badChecksum(page: UInt32)
        case notOpus
        case badPacket(Int)
        case packetTooLarge(Int)
        public var description: String {
            switch self {
            case .notOgg: "the sound encoder's output is not an Ogg stream"
            case .badChecksum(let n): "page \(n) of the sound encoder's Ogg stream is damaged (its checksum does not match)"
            case .notOpus: "the sound encoder's Ogg stream does not carry Opus"
            case .badPacket(let n): "audio packet \(n) of the sound encoder's stream is not a valid Opus packet"
            case .packetTooLarge(let n): "the sound encoder wrote a packet of \(n) bytes, more than an audio packet can be"
            }
        }
    }

    /// An Opus packet holds at most 120 ms; at 510 kb/s that is under 8 kB. Far beyond: corrupt.
    public static let maxPacketBytes = 64 << 10
    private var buffer: [UInt8] = []
    private var start = 0
    /// A packet continued on the next page.
    private var partial: [UInt8] = []
    /// Packets seen so far, headers included.
    public private(set) var packets = 0

    public init() {}

    /// Adds `bytes` and returns every audio packet they complete.
    public mutating func append(_ bytes: some Collection<UInt8>) throws(ReadError) -> [EncodedAudioPacket] {
        buffer += bytes
        var out: [EncodedAudioPacket] = []
        while buffer.count - start >= 27 {
            guard buffer[start..<start + 4].elementsEqual("OggS".utf8), buffer[start + 4] == 0 else { throw .notOgg }
            let segments = Int(buffer[start + 26])
            guard buffer.count - start >= 27 + segments else { break }
            let lacing = buffer[start + 27..<start + 27 + segments]
            let bodyLength = lacing.reduce(0) { $0 + Int($1) }
            let pageLength = 27 + segments + bodyLength
            guard buffer.count - start >= pageLength else { break }
            let page = Array(buffer[start..<start + pageLength])
            start += pageLength
            let sequence = UInt32(page[18]) | UInt32(page[19]) << 8 | UInt32(page[20]) << 16 | UInt32(page[21]) << 24
            let stored = UInt32(page[22]) | UInt32(page[23]) << 8 | UInt32(page[24]) << 16 | UInt32(page[25]) << 24
            var zeroed = page
            zeroed.replaceSubrange(22..<26, with: [0, 0, 0, 0])
            guard OggCRC.checksum(zeroed) == stored else { throw .badChecksum(page: sequence) }
            // A page that does not continue a packet drops whatever was left unfinished.
            if page[5] & 1 == 0 { partial = [] }
            var offset = 27 + segments
            for l in lacing {
                partial += page[offset..<offset + Int(l)]
                offset += Int(l)
                guard partial.count <= Self.maxPacketBytes else { throw .packetTooLarge(partial.count) }
                if l < 255 {
                    if let p = try take(partial) { out.append(p) }
                    partial = []
                }
            }
        }
        if start > 65536 || start == buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        return out
    }

    private mutating func take(_ packet: [UInt8]) throws(ReadError) -> EncodedAudioPacket? {
        packets += 1
        switch packets {
        case 1:
            guard packet.starts(with: "OpusHead".utf8) else { throw .notOpus }
            return nil
        case 2:
            return nil  // OpusTags
        default:
            guard let samples = EncodedAudioPacket.opusSamples(packet) else { throw .badPacket(packets - 2) }
            return EncodedAudioPacket(data: packet, samples: samples)
        }
    }
}

/// Writes Opus packets as an Ogg Opus stream, one page per packet: what the simulator feeds
/// ffmpeg to decode the audio it received, and what the reader's tests read.
public struct OggOpusWriter: Sendable {
    private let serial: UInt32
    private var sequence: UInt32 = 0
    private var granule: UInt64 = 0

    public init(serial: UInt32 = 0x4361_7374) { self.serial = serial }

    /// The two header pages: OpusHead (48 kHz, no pre-skip) and OpusTags.
    public mutating func header(channels: Int = 2) -> [UInt8] {
        var head = Array("OpusHead".utf8) + [1, UInt8(clamping: channels), 0, 0]
        head += [0x80, 0xBB, 0, 0]  // 48000
        head += [0, 0, 0]  // gain, mapping family 0
        let vendor = Array("CastDeck".utf8)
        let tags = Array("OpusTags".utf8) + le32(UInt32(vendor.count)) + vendor + le32(0)
        return page([head], flags: 2) + page([tags], flags: 0)
    }

    /// A page holding one audio packet of `samples` samples.
    public mutating func packet(_ data: [UInt8], samples: Int) -> [UInt8] {
        granule += UInt64(samples)
        return page([data], flags: 0)
    }

    /// A page of whole packets (together under 255 lacing values, about 64 kB).
    mutating func page(_ packets: [[UInt8]], flags: UInt8) -> [UInt8] {
        var lacing: [UInt8] = []
        for p in packets {
            lacing += [UInt8](repeating: 255, count: p.count / 255)
            lacing.append(UInt8(p.count % 255))
        }
        var out = Array("OggS".utf8) + [0, flags]
        for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: granule >> (8 * UInt64(i)))) }
        out += le32(serial) + le32(sequence) + [0, 0, 0, 0] + [UInt8(lacing.count)] + lacing
        for p in packets { out += p }
        sequence += 1
        let crc = OggCRC.checksum(out)
        out.replaceSubrange(22..<26, with: le32(crc))
        return out
    }

    private func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * UInt32($0))) } }
}

/// Ogg's page checksum: CRC-32 with polynomial 0x04C11DB7, no reflection, starting at 0.
enum OggCRC {
    static let table: [UInt32] = (0..<256).map { i in
        var r = UInt32(i) << 24
        for _ in 0..<8 { r = r & 0x8000_0000 != 0 ? (r << 1) ^ 0x04C1_1DB7 : r << 1 }
        return r
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0
        for b in bytes { crc = (crc << 8) ^ table[Int((crc >> 24) ^ UInt32(b))] }
        return crc
    }
}
