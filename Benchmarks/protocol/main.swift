// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// Decodes the realistic MEDIA_STATUS frame (framing + protobuf + JSON into typed models) in
// a loop and prints messages per second; in the same run pychromecast's own decoding path
// (its cast_channel_pb2 + json.loads) does the same work, and the ratio is printed. A second
// baseline is Foundation's JSONDecoder on the same models. With Benchmarks/run.sh's allocator
// counter preloaded, it also counts allocations per decoded message.
// Then the other direction, what the simulator does for every command: the same typed status
// encoded to JSON and framed, against pychromecast's sending path (json.dumps + protobuf) and
// Foundation's JSONEncoder.
//   castdeck-bench-protocol [--seconds S] [--rounds N] [--python PATH]
// For profilers: CASTDECK_BENCH_ITERATIONS=N (typed decode), CASTDECK_BENCH_TREE_ITERATIONS=N
// (untyped tree), CASTDECK_BENCH_ENCODE_ITERATIONS=N (encode) run just that N times and stop.
// The typed decode through the tree (the loose path a status the one-pass reader steps aside
// from takes, protocol.md §17) is measured too, against the one-pass reader.
@_spi(Reference) import CastProtocol
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
    // Compact, and with slashes as a receiver writes them (JSON.stringify does not escape '/').
    let compact = try? JSONSerialization.data(withJSONObject: object, options: [.withoutEscapingSlashes])
else {
    FileHandle.standardError.write(Data("run from the repository root: \(fixture) not found\n".utf8))
    exit(1)
}
let payload = String(decoding: compact, as: UTF8.self)
let frame = try CastMessage(source: "web-7", destination: "sender-1", namespace: CastNamespace.mediaURN, utf8: payload).framed()
let framePath = FileManager.default.temporaryDirectory.appendingPathComponent("castdeck-bench-frame.bin").path
_ = FileManager.default.createFile(atPath: framePath, contents: Data(frame))

/// One stream decoder for the whole run, as a connection keeps one: its buffer is reused.
nonisolated(unsafe) var decoder = CastFrameDecoder()

/// One decode: frame → CastMessage → MediaMessage with a typed MediaStatus.
@inline(never)
func decodeOnce() -> Int {
    decoder.append(frame)
    let decoded: NamespacedMessage
    do {
        guard let message = try decoder.nextMessage() else { fatalError("benchmark frame incomplete") }
        decoded = try message.decoded()
    } catch {
        fatalError("benchmark frame did not decode: \(error)")
    }
    guard case .media(.mediaStatus(let s)) = decoded else { fatalError("benchmark frame is not a MEDIA_STATUS") }
    return s.status.count
}

/// The same frame through Foundation's JSONDecoder into the same typed models.
@inline(never)
func foundationOnce() -> Int {
    decoder.append(frame)
    guard let message = try? decoder.nextMessage(), let json = message.withUTF8Payload({ Data(buffer: $0) }),
        case .mediaStatus(let s)? = try? JSONDecoder().decode(MediaMessage.self, from: json)
    else { fatalError("benchmark frame did not decode with JSONDecoder") }
    return s.status.count
}

/// The status as the simulator holds it, to encode.
let statusMessage: MediaMessage = {
    decoder.append(frame)
    guard case .media(let m)? = try? decoder.nextMessage()?.decoded() else { fatalError("benchmark frame did not decode") }
    return m
}()

/// One encode: typed MEDIA_STATUS → JSON → envelope → frame, as the simulator answers.
@inline(never)
func encodeOnce() -> Int {
    guard let bytes = try? CastMessage(source: "web-7", destination: "sender-1", statusMessage).framed() else {
        fatalError("benchmark status did not encode")
    }
    return bytes.count > 0 ? 1 : 0
}

/// The same JSON through Foundation's JSONEncoder (keys sorted, slashes as they are).
@inline(never)
func foundationEncodeOnce() -> Int {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let json = try? encoder.encode(statusMessage),
        let bytes = try? CastMessage(
            source: "web-7", destination: "sender-1", namespace: CastNamespace.mediaURN,
            utf8: String(decoding: json, as: UTF8.self)
        ).framed()
    else { fatalError("benchmark status did not encode with JSONEncoder") }
    return bytes.count > 0 ? 1 : 0
}

/// Allocator calls per call of `body`, when malloc-count.so is preloaded.
func allocations(_ body: () -> Int) -> Double? {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "castdeck_malloc_calls") else { return nil }
    let calls = unsafeBitCast(symbol, to: (@convention(c) () -> UInt).self)
    _ = body()
    let n = 1000
    let before = calls()
    for _ in 0..<n { _ = body() }
    return Double(calls() - before) / Double(n)
}

func result(_ name: String, _ ours: Double, _ peer: Double, _ peerName: String, _ unit: String, better: String) {
    let fields = [
        "\"area\":\"protocol\"", "\"name\":\"\(name)\"", "\"ours\":\(ours)", "\"peer\":\(peer)",
        "\"peer_name\":\"\(peerName)\"", "\"unit\":\"\(unit)\"", "\"better\":\"\(better)\"",
    ]
    print("bench-result: {" + fields.joined(separator: ",") + "}")
}

/// The same work as json.loads: frame → CastMessage → an untyped JSON tree.
/// The same frame into the typed models through the JSON tree and Codable, the path that
/// reads loosely.
@inline(never)
func decodeThroughTreeOnce() -> Int {
    decoder.append(frame)
    guard let message = try? decoder.nextMessage(),
        let decoded = message.withUTF8Payload({ try? CastJSON.decodeThroughTree(MediaMessage.self, fromUTF8: $0, namespace: CastNamespace.mediaURN) }),
        case .mediaStatus(let m)? = decoded
    else { fatalError("benchmark frame did not decode through the tree") }
    return m.status.count
}

@inline(never)
func parseTreeOnce() -> Int {
    decoder.append(frame)
    guard let message = try? decoder.nextMessage(), let parsed = message.withUTF8Payload({ try? JSONValue(parsing: $0) }),
        let tree = parsed, let status = tree["status"]?.arrayValue
    else { fatalError("benchmark frame did not parse") }
    return status.count
}

@MainActor func swiftRate(_ body: () -> Int) -> Double {
    let clock = ContinuousClock()
    var n = 0
    let start = clock.now
    let deadline = start.advanced(by: .milliseconds(Int(seconds * 1000)))
    while clock.now < deadline {
        for _ in 0..<100 { n += body() }
    }
    let elapsed = clock.now - start
    return Double(n) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}

@MainActor func pythonRate(_ script: String = "pychromecast_decode.py") -> Double? {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: python)
    p.arguments = ["Benchmarks/protocol/" + script, framePath, String(seconds)]
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
// For profilers (callgrind counts instructions): decode N times and stop.
if let n = ProcessInfo.processInfo.environment["CASTDECK_BENCH_ITERATIONS"].flatMap(Int.init) {
    var total = 0
    for _ in 0..<n { total += decodeOnce() }
    print("decoded \(total) statuses")
    exit(0)
}
if let n = ProcessInfo.processInfo.environment["CASTDECK_BENCH_TREE_ITERATIONS"].flatMap(Int.init) {
    var total = 0
    for _ in 0..<n { total += parseTreeOnce() }
    print("parsed \(total) statuses as trees")
    exit(0)
}
if let n = ProcessInfo.processInfo.environment["CASTDECK_BENCH_ENCODE_ITERATIONS"].flatMap(Int.init) {
    var total = 0
    for _ in 0..<n { total += encodeOnce() }
    print("encoded \(total) statuses")
    exit(0)
}
print("MEDIA_STATUS frame: \(frame.count) bytes (3 tracks, 2 breaks, 4 clips, 5 images, text style)")
var swiftRates: [Double] = []
var treeRates: [Double] = []
var pyRates: [Double] = []
var foundationRates: [Double] = []
for round in 1...rounds {
    // Interleave the runs so machine noise hits all of them alike.
    let s = swiftRate(decodeOnce)
    swiftRates.append(s)
    let t = swiftRate(parseTreeOnce)
    treeRates.append(t)
    guard let py = pythonRate() else {
        print("pychromecast peer could not run (\(python)); run ./scripts/setup.sh first")
        exit(1)
    }
    pyRates.append(py)
    let f = swiftRate(foundationOnce)
    foundationRates.append(f)
    print(String(format: "round %d: CastDeck typed %.0f msg/s, CastDeck tree %.0f msg/s, pychromecast %.0f msg/s, JSONDecoder %.0f msg/s", round, s, t, py, f))
}
let ms = median(swiftRates), mt = median(treeRates), mp = median(pyRates), mf = median(foundationRates)
print(String(format: "median CastDeck, typed models (MediaStatus, tracks, breaks, style): %.0f msg/s", ms))
print(String(format: "median CastDeck, untyped JSON tree (the work json.loads does):    %.0f msg/s", mt))
print(String(format: "median pychromecast, cast_channel_pb2 + json.loads (dicts):        %.0f msg/s", mp))
print(String(format: "median Foundation JSONDecoder into the same typed models:          %.0f msg/s", mf))
print(String(format: "ratio typed / pychromecast: %.2f   ratio tree / pychromecast: %.2f   typed / JSONDecoder: %.2f", ms / mp, mt / mp, ms / mf))
result("decode MEDIA_STATUS frame, typed", ms, mp, "pychromecast (upb protobuf + json.loads)", "msg/s", better: "higher")
result("decode MEDIA_STATUS frame, untyped tree", mt, mp, "pychromecast (upb protobuf + json.loads)", "msg/s", better: "higher")
result("decode MEDIA_STATUS frame, typed", ms, mf, "Foundation JSONDecoder", "msg/s", better: "higher")
if let typed = allocations(decodeOnce), let tree = allocations(parseTreeOnce), let foundation = allocations(foundationOnce) {
    print(String(format: "allocations per message: typed %.1f, tree %.1f, JSONDecoder %.1f", typed, tree, foundation))
    result("allocations per decoded MEDIA_STATUS, typed", typed, foundation, "Foundation JSONDecoder", "allocations", better: "lower")
} else {
    print("allocations per message: not counted (run through Benchmarks/run.sh, which preloads malloc-count.so)")
}

var treeTypedRates: [Double] = []
for _ in 1...rounds { treeTypedRates.append(swiftRate(decodeThroughTreeOnce)) }
let mtt = median(treeTypedRates)
print(String(format: "median CastDeck, typed through the tree (the loose path):          %.0f msg/s (%.2f of the one-pass reader)", mtt, mtt / ms))
if let treeTyped = allocations(decodeThroughTreeOnce) {
    print(String(format: "allocations per message, typed through the tree: %.1f", treeTyped))
}

var encodeRates: [Double] = []
var pyEncodeRates: [Double] = []
var foundationEncodeRates: [Double] = []
for round in 1...rounds {
    let e = swiftRate(encodeOnce)
    encodeRates.append(e)
    guard let py = pythonRate("pychromecast_encode.py") else {
        print("pychromecast encode peer could not run (\(python))")
        exit(1)
    }
    pyEncodeRates.append(py)
    let f = swiftRate(foundationEncodeOnce)
    foundationEncodeRates.append(f)
    print(String(format: "round %d: CastDeck encode %.0f msg/s, pychromecast %.0f msg/s, JSONEncoder %.0f msg/s", round, e, py, f))
}
let me = median(encodeRates), mpe = median(pyEncodeRates), mfe = median(foundationEncodeRates)
print(String(format: "median encode MEDIA_STATUS: CastDeck %.0f msg/s, pychromecast (json.dumps + protobuf) %.0f msg/s, JSONEncoder %.0f msg/s", me, mpe, mfe))
result("encode MEDIA_STATUS frame, typed", me, mpe, "pychromecast (json.dumps + protobuf)", "msg/s", better: "higher")
result("encode MEDIA_STATUS frame, typed", me, mfe, "Foundation JSONEncoder", "msg/s", better: "higher")
if let ours = allocations(encodeOnce), let foundation = allocations(foundationEncodeOnce) {
    print(String(format: "allocations per encoded message: CastDeck %.1f, JSONEncoder %.1f", ours, foundation))
}
