// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import Foundation
import Testing

@testable import CastProtocol

/// A small deterministic generator so property tests are repeatable.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SplitMix64 {
    /// `bytes` with 1 to `maxEdits + 1` random edits: a byte replaced by, or inserted from,
    /// `alphabet`, or a byte removed.
    mutating func mutate(_ bytes: [UInt8], maxEdits: Int, alphabet: [UInt8]) -> [UInt8] {
        var bytes = bytes
        for _ in 0...Int.random(in: 0...maxEdits, using: &self) {
            let i = Int.random(in: 0..<bytes.count, using: &self)
            switch Int.random(in: 0..<3, using: &self) {
            case 0: bytes[i] = alphabet.randomElement(using: &self)!
            case 1: bytes.remove(at: i)
            default: bytes.insert(alphabet.randomElement(using: &self)!, at: i)
            }
        }
        return bytes
    }
}

func ping() -> CastMessage {
    CastMessage(source: "sender-0", destination: "receiver-0", .ping as HeartbeatMessage)
}

func drain(_ d: inout CastFrameDecoder) throws(CastProtocolError) -> [CastMessage] {
    var out: [CastMessage] = []
    while let m = try d.nextMessage() { out.append(m) }
    return out
}

@Suite struct Envelope {
    /// The worked example of the protocol reference, byte for byte: 84-byte body, with the
    /// zero-valued required fields protocol_version and payload_type present.
    @Test func heartbeatPingMatchesTheReferenceBytes() throws {
        let msg = CastMessage(source: "sender-0", destination: "receiver-0", namespace: CastNamespace.heartbeatURN, utf8: #"{"type":"PING"}"#)
        let frame = try msg.framed()
        var expected: [UInt8] = [0, 0, 0, 0x54, 0x08, 0x00, 0x12, 0x08]
        expected += Array("sender-0".utf8) + [0x1A, 0x0A] + Array("receiver-0".utf8)
        expected += [0x22, 0x27] + Array(CastNamespace.heartbeatURN.utf8) + [0x28, 0x00, 0x32, 0x0F]
        expected += Array(#"{"type":"PING"}"#.utf8)
        #expect(frame == expected)
        #expect(frame.count == 4 + 84)
    }

    @Test func encodesPingAsTheReferenceShowsIt() {
        #expect(ping().utf8 == #"{"type":"PING"}"#)
    }

    @Test func binaryPayloadRoundTrips() throws {
        let m = CastMessage(sourceID: "sender-0", destinationID: "receiver-0", namespace: CastNamespace.deviceAuthURN, payload: .binary([0x0A, 0x00]))
        let back = try CastMessage(serializedBody: m.serializedBody())
        #expect(back == m)
        #expect(try back.decoded() == .deviceAuth([0x0A, 0x00]))
    }

    @Test func missingRequiredFieldsAreRejected() {
        // protocol_version only
        #expect(throws: CastProtocolError.malformedMessage(reason: "a required field is missing")) {
            try CastMessage(serializedBody: [0x08, 0x00])
        }
        // all five required fields, but an empty source id
        var m = ping()
        m.sourceID = ""
        #expect(throws: CastProtocolError.missingField("source id")) { try CastMessage(serializedBody: m.serializedBody()) }
    }

    @Test func payloadMustMatchItsType() {
        // STRING type with no payload_utf8: 08 00 12 01 61 1a 01 62 22 01 63 28 00
        let body: [UInt8] = [0x08, 0x00, 0x12, 0x01, 0x61, 0x1A, 0x01, 0x62, 0x22, 0x01, 0x63, 0x28, 0x00]
        #expect(throws: CastProtocolError.payloadMismatch(expected: "text")) { try CastMessage(serializedBody: body) }
    }

    /// Text fields are checked eight bytes at a time while they are ASCII: every length and
    /// position around those words must still accept valid UTF-8 and refuse invalid bytes.
    @Test func textFieldsAreValidUTF8AtEveryLengthAndPosition() throws {
        for length in 0...24 {
            let ascii = String(repeating: "a", count: length)
            let m = CastMessage(source: "s", destination: "r", namespace: CastNamespace.mediaURN, utf8: ascii)
            #expect(try CastMessage(serializedBody: m.serializedBody()) == m)
            for position in 0..<length {
                // U+0641 (two bytes) in place of one "a": still valid.
                var chars = Array(ascii)
                chars[position] = "\u{0641}"
                let valid = CastMessage(source: "s", destination: "r", namespace: CastNamespace.mediaURN, utf8: String(chars))
                #expect(try CastMessage(serializedBody: valid.serializedBody()) == valid)
                // A lone continuation byte, an overlong "/" and a surrogate: refused.
                for bad: [UInt8] in [[0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xFF]] {
                    var body = m.serializedBody()
                    let start = body.count - length
                    body.replaceSubrange((start + position)..<(start + position + 1), with: bad)
                    // The payload's length prefix is the byte before it (lengths here are < 128).
                    body[start - 1] = UInt8(length - 1 + bad.count)
                    #expect(throws: CastProtocolError.malformedMessage(reason: "a text field is not valid UTF-8")) {
                        try CastMessage(serializedBody: body)
                    }
                }
            }
        }
    }

    /// The envelope's own UTF-8 check must refuse exactly what the standard library refuses:
    /// every one- and two-byte sequence, every three-byte one, the four-byte ones around each
    /// boundary, and random mixtures behind ASCII runs of every alignment.
    @Test func utf8CheckAgreesWithTheStandardLibrary() {
        func agree(_ bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBufferPointer { ProtoWire.isValidUTF8($0) == (String(validating: $0, as: UTF8.self) != nil) }
        }
        var disagreements: [[UInt8]] = []
        func check(_ bytes: [UInt8]) { if !agree(bytes), disagreements.count < 10 { disagreements.append(bytes) } }
        for a in 0...255 {
            check([UInt8(a)])
            for b in 0...255 { check([UInt8(a), UInt8(b)]) }
        }
        for a in 0xE0...0xEF {
            for b in 0...255 { for c in 0...255 { check([UInt8(a), UInt8(b), UInt8(c)]) } }
        }
        let edges: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xF4, 0xFF]
        for a in 0xF0...0xFF {
            for b in 0...255 { for c in edges { for d in edges { check([UInt8(a), UInt8(b), c, d]) } } }
        }
        var rng = SplitMix64(state: 0x5EED)
        let pieces: [UInt8] = [0x41, 0x7F, 0x80, 0xBF, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xA0, 0x90]
        for _ in 0..<20_000 {
            var bytes = [UInt8](repeating: 0x61, count: Int.random(in: 0...17, using: &rng))
            for _ in 0..<Int.random(in: 1...10, using: &rng) { bytes.append(pieces.randomElement(using: &rng)!) }
            bytes += [UInt8](repeating: 0x62, count: Int.random(in: 0...9, using: &rng))
            check(bytes)
        }
        #expect(disagreements.isEmpty, "first disagreements: \(disagreements)")
    }

    /// A text payload from the wire is kept as bytes until asked for: the message still reads,
    /// compares, hashes, re-encodes and describes as the String it carries.
    @Test func receivedTextPayloadBehavesAsItsString() throws {
        let text = #"{"type":"PING","note":"نمایش ✓"}"#
        let sent = CastMessage(source: "s", destination: "r", namespace: CastNamespace.heartbeatURN, utf8: text)
        let received = try CastMessage(serializedBody: sent.serializedBody())
        #expect(received == sent)
        #expect(received.hashValue == sent.hashValue)
        #expect(received.payload == .string(text))
        #expect(received.utf8 == text)
        #expect(received.withUTF8Payload { Array($0) } == Array(text.utf8))
        #expect(received.serializedBody() == sent.serializedBody())
        #expect(try received.framed() == sent.framed())
        #expect(received.description == sent.description)
        #expect(try received.decoded() == .heartbeat(.ping))
        var changed = received
        changed.payload = .binary([1, 2])
        #expect(changed.withUTF8Payload { _ in true } == nil)
        #expect(try CastMessage(serializedBody: changed.serializedBody()).payload == .binary([1, 2]))
    }

    @Test func unknownProtobufFieldsAreIgnored() throws {
        var body = ping().serializedBody()
        body += [0x40, 0x01, 0x48, 0x05]  // continued = true, remaining_length = 5
        body += [0xA0, 0x06, 0x01]  // field 100 varint
        #expect(try CastMessage(serializedBody: body) == ping())
    }
}

@Suite struct Framing {
    let messages: [CastMessage] = (0..<20).map { i in
        CastMessage(
            source: "sender-\(i)", destination: "receiver-0", namespace: CastNamespace.mediaURN,
            utf8: CastJSON.encode(MediaMessage.getStatus(MediaSessionRequest(requestId: i + 1, mediaSessionId: i))))
    }

    var stream: [UInt8] { messages.flatMap { try! $0.framed() } }

    @Test func oneByteAtATime() throws {
        var d = CastFrameDecoder()
        var got: [CastMessage] = []
        for b in stream {
            d.append(CollectionOfOne(b))
            got += try drain(&d)
        }
        #expect(got == messages)
        try d.finish()
    }

    @Test func everyFrameInOneRead() throws {
        var d = CastFrameDecoder()
        d.append(stream)
        #expect(try drain(&d) == messages)
        #expect(d.bufferedByteCount == 0)
    }

    @Test func randomSplits() throws {
        var rng = SplitMix64(state: 42)
        let bytes = stream
        for _ in 0..<200 {
            var d = CastFrameDecoder()
            var got: [CastMessage] = []
            var i = 0
            while i < bytes.count {
                let n = Int.random(in: 1...300, using: &rng)
                d.append(bytes[i..<min(i + n, bytes.count)])
                got += try drain(&d)
                i += n
            }
            #expect(got == messages)
        }
    }

    @Test func exactly65536BytesIsAccepted() throws {
        let overhead = CastMessage(source: "s", destination: "d", namespace: "urn:x-cast:big", utf8: "").serializedBody().count
        // payload_utf8 length is a 3-byte varint for these sizes, the empty one had a 1-byte varint
        let text = String(repeating: "x", count: 65_536 - overhead - 2)
        let msg = CastMessage(source: "s", destination: "d", namespace: "urn:x-cast:big", utf8: text)
        #expect(msg.serializedBody().count == 65_536)
        var d = CastFrameDecoder()
        d.append(try msg.framed())
        #expect(try d.nextMessage() == msg)
    }

    @Test func oneByteMoreIsRefusedBeforeItArrives() throws {
        let big = CastMessage(source: "s", destination: "d", namespace: "urn:x-cast:big", utf8: String(repeating: "y", count: 65_600))
        #expect(throws: CastProtocolError.messageTooLarge(bytes: big.serializedBody().count)) { try big.framed() }
        // A header announcing 65,537 bytes fails at once, with only the header received.
        var d = CastFrameDecoder()
        d.append([0x00, 0x01, 0x00, 0x01])
        #expect(throws: CastProtocolError.frameTooLarge(length: 65_537)) { try d.nextMessage() }
        // …and stays failed: the stream has no recoverable boundary.
        d.append(try ping().framed())
        #expect(throws: CastProtocolError.frameTooLarge(length: 65_537)) { try d.nextMessage() }
    }

    @Test func hugeClaimAllocatesNothing() {
        var d = CastFrameDecoder()
        d.append([0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 3])
        #expect(throws: CastProtocolError.frameTooLarge(length: 0xFFFF_FFFF)) { try d.nextFrame() }
        #expect(d.bufferedByteCount == 0)
    }

    @Test func zeroLengthIsAnError() {
        var d = CastFrameDecoder()
        d.append([0, 0, 0, 0])
        #expect(throws: CastProtocolError.emptyFrame) { try d.nextMessage() }
        #expect(throws: CastProtocolError.emptyFrame) { try CastFraming.frame([]) }
    }

    @Test func truncatedBodyWaitsThenReportsAtTheEnd() throws {
        let frame = try ping().framed()
        var d = CastFrameDecoder()
        d.append(frame.dropLast(10))
        #expect(try d.nextMessage() == nil)
        #expect(throws: CastProtocolError.truncatedFrame(expected: 84, received: 74)) { try d.finish() }
        var h = CastFrameDecoder()
        h.append([0, 0])
        #expect(throws: CastProtocolError.truncatedFrame(expected: 4, received: 2)) { try h.finish() }
    }

    @Test func bodyThatIsNotAProtobuf() {
        var d = CastFrameDecoder()
        d.append([0, 0, 0, 3, 0xFF, 0xFF, 0xFF])
        #expect(throws: CastProtocolError.self) { try d.nextMessage() }
    }

    /// Property: random bytes never crash or hang the decoder; each read ends in messages,
    /// "need more", or one typed error after which the decoder stays failed.
    @Test func randomGarbageNeverCrashes() {
        var rng = SplitMix64(state: 7)
        var outcomes = [String: Int]()
        for _ in 0..<5_000 {
            var d = CastFrameDecoder()
            let n = Int.random(in: 0...200, using: &rng)
            var bytes = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            // Half the time make the header plausible so bodies reach the protobuf parser.
            if n >= 4 && Bool.random(using: &rng) {
                let len = UInt32(n - 4)
                bytes[0] = 0
                bytes[1] = 0
                bytes[2] = UInt8(len >> 8)
                bytes[3] = UInt8(len & 0xFF)
            }
            d.append(bytes)
            do {
                let got = try drain(&d)
                for m in got { _ = try? m.decoded() }
                outcomes["ok", default: 0] += 1
            } catch {
                outcomes[String(describing: error).prefix(20).description, default: 0] += 1
                #expect(throws: error) { try d.nextMessage() }
            }
        }
        #expect(outcomes.values.reduce(0, +) == 5_000)
    }

    /// Property: a valid stream with random bytes flipped decodes a prefix of the original
    /// messages and then either goes on or fails with a typed error — never a crash.
    @Test func corruptedStreamsFailCleanly() {
        var rng = SplitMix64(state: 99)
        let bytes = stream
        for _ in 0..<500 {
            var corrupted = bytes
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                corrupted[Int.random(in: 0..<corrupted.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            var d = CastFrameDecoder()
            d.append(corrupted)
            var count = 0
            do {
                while let m = try d.nextMessage() {
                    count += 1
                    _ = try? m.decoded()
                }
            } catch {
                #expect(error.description.isEmpty == false)
            }
            #expect(count <= messages.count + 1)
        }
    }
}

@Suite struct RequestIDs {
    @Test func startAtOneAndIncrease() {
        let g = RequestIDGenerator()
        #expect((0..<5).map { _ in g.next() } == [1, 2, 3, 4, 5])
    }

    @Test func neverZeroAndWrapWithin32Bits() {
        let g = RequestIDGenerator(start: RequestID.max - 1)
        let ids: [Int] = [g.next(), g.next(), g.next()]
        #expect(ids == [RequestID.max - 1, RequestID.max, 1])
        #expect(RequestIDGenerator(start: 0).next() == 1)
        #expect(RequestIDGenerator(start: -5).next() == 1)
    }

    @Test func uniqueAcrossConcurrentTasks() async {
        let g = RequestIDGenerator()
        let ids = await withTaskGroup(of: [Int].self) { group in
            for _ in 0..<8 { group.addTask { (0..<1000).map { _ in g.next() } } }
            var all: [Int] = []
            for await chunk in group { all += chunk }
            return all
        }
        #expect(Set(ids).count == 8000)
        #expect(!ids.contains(0))
    }

    @Test func broadcastsAreRecognised() {
        #expect(RequestID.isUnsolicited(0))
        #expect(RequestID.isUnsolicited(nil))
        #expect(!RequestID.isUnsolicited(3))
    }
}

@Suite struct Colors {
    @Test func parseAndPrint() {
        #expect(CastColor(hex: "#00000080") == CastColor(red: 0, green: 0, blue: 0, alpha: 128))
        #expect(CastColor(hex: "#FF8000") == CastColor(red: 255, green: 128, blue: 0, alpha: 255))
        #expect(CastColor(red: 1, green: 2, blue: 3, alpha: 4).hex == "#01020304")
        for bad in ["", "#", "FFFFFFFF", "#GGGGGGGG", "#12345", "#123456789"] { #expect(CastColor(hex: bad) == nil) }
    }
}
