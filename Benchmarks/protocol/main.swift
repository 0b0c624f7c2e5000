// Decodes the realistic MEDIA_STATUS frame (framing + protobuf + JSON into typed models) in
// a loop and prints messages per second; in the same run pychromecast's own decoding path
// (its cast_channel_pb2 + json.loads) does the same work, and the ratio is printed.
//   castdeck-bench-protocol [--seconds S] [--rounds N] [--python PATH]
import CastProtocol
import Foundation

var seconds = 2.0
var rounds = 5
var python = ".venv/bin/python"
var args = CommandLine.arguments.dropFirst().makeIterator()
while let a = args.next() {
    switch a {
    case "--seconds": seconds = Double(args.next() ?? "") ?? seconds
    case "--rounds": rounds = Int(args.next() ?? "") ?? rounds
    case "--python": python = args.next() ?? python
    default:
        FileHandle.standardError.write(Data("usage: castdeck-bench-protocol [--seconds S] [--rounds N] [--python PATH]\n".utf8))
        exit(2)
    }
}

let fixture = "Tests/CastProtocolTests/Fixtures/media/media-status-realistic.json"
guard let data = FileManager.default.contents(atPath: fixture),
    let object = try? JSONSerialization.jsonObject(with: data),
    let compact = try? JSONSerialization.data(withJSONObject: object)
else {
    FileHandle.standardError.write(Data("run from the repository root: \(fixture) not found\n".utf8))
    exit(1)
}
let payload = String(decoding: compact, as: UTF8.self)
let frame = try CastMessage(source: "web-7", destination: "sender-1", namespace: CastNamespace.mediaURN, utf8: payload).framed()
let framePath = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-bench-frame.bin").path
_ = FileManager.default.createFile(atPath: framePath, contents: Data(frame))

/// One decode: frame → CastMessage → MediaMessage with a typed MediaStatus.
@inline(never)
func decodeOnce() -> Int {
    var decoder = CastFrameDecoder()
    decoder.append(frame)
    guard let message = try? decoder.nextMessage(), case .media(.mediaStatus(let s))? = try? message.decoded() else {
        fatalError("benchmark frame did not decode")
    }
    return s.status.count
}

@MainActor func swiftRate() -> Double {
    let clock = ContinuousClock()
    var n = 0
    let start = clock.now
    let deadline = start.advanced(by: .milliseconds(Int(seconds * 1000)))
    while clock.now < deadline {
        for _ in 0..<100 { n += decodeOnce() }
    }
    let elapsed = clock.now - start
    return Double(n) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}

@MainActor func pythonRate() -> Double? {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: python)
    p.arguments = ["Benchmarks/protocol/pychromecast_decode.py", framePath, String(seconds)]
    let out = Pipe()
    p.standardOutput = out
    do { try p.run() } catch { return nil }
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    guard p.terminationStatus == 0 else { return nil }
    return Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

_ = decodeOnce()
print("MEDIA_STATUS frame: \(frame.count) bytes (3 tracks, 2 breaks, 4 clips, 5 images, text style)")
var swiftRates: [Double] = []
var pyRates: [Double] = []
for round in 1...rounds {
    // Alternate the two so machine noise hits both alike.
    let s = swiftRate()
    swiftRates.append(s)
    guard let py = pythonRate() else {
        print("pychromecast peer could not run (\(python)); run ./scripts/setup.sh first")
        exit(1)
    }
    pyRates.append(py)
    print(String(format: "round %d: CastDeck %.0f msg/s, pychromecast %.0f msg/s, ratio %.2f", round, s, py, s / py))
}
let ms = median(swiftRates), mp = median(pyRates)
print(String(format: "median: CastDeck %.0f msg/s, pychromecast (cast_channel_pb2 + json.loads) %.0f msg/s", ms, mp))
print(String(format: "ratio CastDeck / pychromecast: %.2f", ms / mp))
