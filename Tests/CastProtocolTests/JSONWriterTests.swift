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

    @Test func nonFiniteStillBecomesNull() {
        #expect(CastJSON.encode(JSONValue.double(.nan)) == "null")
    }
}
