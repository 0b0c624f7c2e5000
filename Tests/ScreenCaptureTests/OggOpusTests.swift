// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation
import XCTest

@testable import ScreenCapture

/// The Ogg Opus reader against the writer, against ffmpeg's own output, and against damaged,
/// truncated and lying input.
final class OggOpusTests: XCTestCase {
    /// CELT 20 ms packets (TOC config 31, one frame), of various lengths.
    func packets(_ n: Int) -> [[UInt8]] { (0..<n).map { i in [0xF8] + (0..<(40 + i * 37 % 300)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ i) } } }

    func stream(_ packets: [[UInt8]]) -> [UInt8] {
        var w = OggOpusWriter()
        var out = w.header()
        for p in packets { out += w.packet(p, samples: 960) }
        return out
    }

    func testPacketsComeOutWholeFromPiecesOfAnySize() throws {
        let sent = packets(12)
        let bytes = stream(sent)
        for piece in [1, 5, 27, 28, 300, bytes.count] {
            var reader = OggOpusReader()
            var got: [EncodedAudioPacket] = []
            var i = 0
            while i < bytes.count {
                got += try reader.append(bytes[i..<min(i + piece, bytes.count)])
                i += piece
            }
            XCTAssertEqual(got.map(\.data), sent, "pieces of \(piece)")
            XCTAssertEqual(Set(got.map(\.samples)), [960])
        }
    }

    func testAPacketSpanningPagesIsJoined() throws {
        var w = OggOpusWriter()
        var bytes = w.header()
        // A 600-byte packet cut over two pages: lacing 255, 255 then (continued page) 90.
        let big: [UInt8] = [0xF8] + [UInt8](repeating: 3, count: 599)
        var first = w.page([Array(big[0..<510])], flags: 0)
        // A packet of exactly 510 bytes is laced 255, 255, 0; drop the 0 so the packet goes on.
        first.remove(at: 27 + 2)
        first[26] = 2
        first.replaceSubrange(22..<26, with: [0, 0, 0, 0])
        first.replaceSubrange(22..<26, with: withUnsafeBytes(of: OggCRC.checksum(first).littleEndian, Array.init))
        bytes += first + w.page([Array(big[510...])], flags: 1)
        var reader = OggOpusReader()
        XCTAssertEqual(try reader.append(bytes).map(\.data), [big])
    }

    func testOpusPacketLengthsFromTheTOCByte() {
        XCTAssertEqual(EncodedAudioPacket.opusSamples([0xF8, 0]), 960, "CELT 20 ms, one frame")
        XCTAssertEqual(EncodedAudioPacket.opusSamples([0xF9, 0]), 1920, "two frames")
        XCTAssertEqual(EncodedAudioPacket.opusSamples([0x0B, 3]), 960 * 3, "SILK 20 ms, three frames counted in the second byte")
        XCTAssertEqual(EncodedAudioPacket.opusSamples([0x1B, 2]), 5760, "SILK 60 ms × 2 = 120 ms, the most a packet holds")
        XCTAssertEqual(EncodedAudioPacket.opusSamples([0xE0]), 120, "CELT 2.5 ms")
        XCTAssertNil(EncodedAudioPacket.opusSamples([0x1B, 3]), "three frames of 60 ms would be 180 ms")
        XCTAssertNil(EncodedAudioPacket.opusSamples([0xFB, 0]), "zero frames")
        XCTAssertNil(EncodedAudioPacket.opusSamples([0xFB]), "frame count missing")
        XCTAssertNil(EncodedAudioPacket.opusSamples([]))
    }

    func testHostileStreamsEndWithAClearError() {
        let good = stream(packets(3))
        func read(_ bytes: [UInt8]) -> OggOpusReader.ReadError? {
            var r = OggOpusReader()
            do {
                _ = try r.append(bytes)
                return nil
            } catch { return error }
        }
        XCTAssertEqual(read(Array("RIFF".utf8) + [UInt8](repeating: 0, count: 40)), .notOgg)
        var flipped = good
        flipped[40] ^= 0x55
        XCTAssertEqual(read(flipped), .badChecksum(page: 0))
        var vorbis = OggOpusWriter()
        var notOpus = vorbis.page([Array("\u{1}vorbis".utf8) + [0, 0, 0, 0]], flags: 2)
        notOpus += vorbis.page([[1]], flags: 0)
        XCTAssertEqual(read(notOpus), .notOpus)
        var empty = OggOpusWriter()
        var bad = empty.header()
        bad += empty.page([[0xFB]], flags: 0)
        XCTAssertEqual(read(bad), .badPacket(1))
        // A truncated stream hands out what is whole and waits for the rest, without error.
        var r = OggOpusReader()
        XCTAssertEqual(try r.append(good.dropLast(10)).count, 2)
        XCTAssertEqual(try r.append(good.suffix(10)).count, 1)
        // Pages that chain 255-byte segments forever: refused once past any real packet.
        var endless = OggOpusWriter()
        var huge = endless.header()
        for n in 0..<3 { huge += rawPage(segments: 255, flags: n == 0 ? 0 : 1, sequence: UInt32(2 + n)) }
        guard case .packetTooLarge(let size) = read(huge) else { return XCTFail("a packet without end is refused") }
        XCTAssertGreaterThan(size, OggOpusReader.maxPacketBytes)
    }

    /// A page whose segments are all 255 bytes long: a packet that goes on past it.
    func rawPage(segments: Int, flags: UInt8, sequence: UInt32) -> [UInt8] {
        var page = Array("OggS".utf8) + [0, flags] + [UInt8](repeating: 0, count: 8) + [1, 0, 0, 0]
        page += withUnsafeBytes(of: sequence.littleEndian, Array.init) + [0, 0, 0, 0, UInt8(segments)]
        page += [UInt8](repeating: 255, count: segments) + [UInt8](repeating: 1, count: 255 * segments)
        page.replaceSubrange(22..<26, with: withUnsafeBytes(of: OggCRC.checksum(page).littleEndian, Array.init))
        return page
    }

    /// ffmpeg's own Ogg Opus (what `AudioEncoder` reads): a 1 kHz tone of 0.5 s is 25 packets of
    /// 20 ms after the two headers.
    func testFFmpegsOggOpusIsRead() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments =
            ["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=1000:duration=0.5:sample_rate=48000"]
            + Array(EncoderArguments.audio().drop { $0 != "-c:a" })
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let bytes = [UInt8](out.fileHandleForReading.readDataToEndOfFile())
        p.waitUntilExit()
        var reader = OggOpusReader()
        let got = try reader.append(bytes)
        XCTAssertGreaterThanOrEqual(got.count, 25)
        XCTAssertEqual(Set(got.map(\.samples)), [960])
    }
}
