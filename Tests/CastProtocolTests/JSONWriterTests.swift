import Foundation
import Testing

@_spi(Reference) @testable import CastProtocol

/// `CastJSON.encode` writes JSON without Foundation; what it writes must be, byte for byte,
/// what Foundation's JSONEncoder (sorted keys, slashes unescaped) writes.
@Suite struct JSONWriterMatchesFoundation {
    func same<T: Encodable>(_ value: T, _ label: String) {
        #expect(CastJSON.encode(value) == CastJSON.encodeWithFoundation(value), "\(label)")
    }

    @Test func everyFixtureMessage() throws {
        for name in Fixtures.all() {
            let message = try Fixtures.message(name)
            switch try message.decoded() {
            case .connection(let m): same(m, name)
            case .heartbeat(let m): same(m, name)
            case .receiver(let m): same(m, name)
            case .media(let m): same(m, name)
            default: break
            }
        }
    }

    @Test func awkwardValues() {
        let strings = ["", "a\"b\\c/d", "\u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}", "فارسی 🎬 e\u{301}", "\u{2028}\u{2029}\u{FEFF}"]
        for s in strings {
            var metadata = MediaMetadata(metadataType: .movie, title: s, subtitle: s)
            metadata.latitude = 0.1
            metadata.longitude = -122.4194155
            same(MediaMessage.load(LoadRequest(requestId: 1, media: MediaInformation(contentId: s, metadata: metadata))), s)
        }
        let numbers: [Double] = [0, -0.0, 1, -1, 0.5, 1.5, 1e-7, 1e21, 1e22, 123456789.125, 1.0 / 3, 5e-324, 1.7976931348623157e308, 100, 2.5e10]
        for d in numbers {
            same(MediaMessage.seek(SeekRequest(requestId: 2, mediaSessionId: 1, currentTime: d)), "\(d)")
            same(JSONValue.array([.double(d), .int(Int64(d.isFinite && abs(d) < 1e18 ? d : 0))]), "\(d) tree")
        }
        same(JSONValue.object(["b": 1, "a": [true, false, nil], "B": "x", "aa": [:], "a1": ["z": 1, "y": [1.5]], "é": 1, "_": 0]), "keys")
        same(JSONValue.int(.min), "min")
        same(JSONValue.int(.max), "max")
    }

    /// Codable's less common shapes, which the writer handles apart from the usual ones:
    /// containers filled after later members (nested and super encoders), a key written twice,
    /// a single value that is itself an object and then gains a member, empty values.
    @Test func unusualContainerShapes() {
        same(Shapes(), "shapes")
        same([Shapes(), Shapes()], "array of shapes")
        same(["k": Shapes()], "dictionary of shapes")
        same(Empty(), "empty")
        same([Empty()], "array of empty")
    }

    struct Shapes: Encodable {
        enum K: String, CodingKey { case z, a, nested, list, dup, sup, m }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: K.self)
            var nested = c.nestedContainer(keyedBy: K.self, forKey: .nested)
            var list = c.nestedUnkeyedContainer(forKey: .list)
            try c.encode("last", forKey: .z)
            try nested.encode(2, forKey: .z)
            try nested.encode([1.5, 2], forKey: .a)
            try list.encode("x")
            var inner = list.nestedContainer(keyedBy: K.self)
            try list.encode(true)
            try inner.encode("in", forKey: .m)
            try c.encode(1, forKey: .dup)
            try c.encode("again", forKey: .dup)
            try c.encode(Optional<Int>.none, forKey: .a)
            let sup = c.superEncoder(forKey: .sup)
            var single = sup.singleValueContainer()
            try single.encode(["q": 1])
            try Tagged().encode(to: encoder)
        }
    }

    /// Writes a body through a single-value container, then a member beside it, as the
    /// `.unknown` message cases do.
    struct Tagged: Encodable {
        enum K: String, CodingKey { case type }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: K.self)
            try c.encode("TAG", forKey: .type)
        }
    }

    struct Empty: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    /// Every fixture of every namespace, mutated: whatever still decodes (strings with odd
    /// bytes, other numbers, unknown members and message types) must encode the same both ways.
    @Test func mutatedFixturesEncodeTheSame() throws {
        var rng = SplitMix64(state: 11)
        let alphabet = Array(#"{}[],:"\ -.0123456789eEtrufalsn/u00Aé"#.utf8) + [0x01, 0x1F, 0x7F]
        var compared = 0
        for name in Fixtures.all() {
            let message = try Fixtures.message(name)
            guard let text = message.utf8 else { continue }
            let original = Array(text.utf8)
            for _ in 0..<150 {
                let bytes = rng.mutate(original, maxEdits: 2, alphabet: alphabet)
                let mutated = CastMessage(sourceID: message.sourceID, destinationID: message.destinationID,
                                          namespace: message.namespace, payload: .string(String(decoding: bytes, as: UTF8.self)))
                switch try? mutated.decoded() {
                case .connection(let m)?: same(m, name)
                case .heartbeat(let m)?: same(m, name)
                case .receiver(let m)?: same(m, name)
                case .media(let m)?: same(m, name)
                default: continue
                }
                compared += 1
            }
        }
        #expect(compared > 1000)
    }

    @Test func nonFiniteStillBecomesNull() {
        #expect(CastJSON.encode(JSONValue.double(.nan)) == "null")
    }
}
