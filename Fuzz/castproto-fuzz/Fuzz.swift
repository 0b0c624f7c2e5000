// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// Fuzzing entry point for frame + JSON decoding (scripts/fuzz.sh builds it with
// -sanitize=fuzzer -DFUZZING). Built normally, it replays the files named on the command
// line through the same checks, which is how a crash found by the fuzzer is reproduced.
@_spi(Reference) import CastProtocol
import Foundation

#if FUZZING
import CLibFuzzer
#endif

/// One input: a byte stream split in two reads at a position taken from its first byte,
/// every frame decoded, validated and its payload decoded by namespace; the same bytes are
/// also tried as a JSON payload of every Google namespace. Whatever decodes must encode and
/// decode back to an equal value. Any crash or failed check is a bug.
func check(_ bytes: [UInt8]) {
    var decoder = CastFrameDecoder()
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    decoder.append(bytes[..<split])
    var messages: [CastMessage] = []
    do {
        while let m = try decoder.nextMessage() { messages.append(m) }
        decoder.append(bytes[split...])
        while let m = try decoder.nextMessage() { messages.append(m) }
        try decoder.finish()
    } catch {
        precondition(!error.description.isEmpty)
    }
    for m in messages {
        // The envelope must survive its own round trip.
        let again = try? CastMessage(serializedBody: m.serializedBody())
        precondition(again == m, "envelope round trip changed \(m)")
        _ = try? m.decoded()
    }
    let text = String(decoding: bytes, as: UTF8.self)
    fastPathsAgree(bytes, text)
    roundTrip(MediaMessage.self, text)
    roundTrip(ReceiverMessage.self, text)
    roundTrip(ConnectionMessage.self, text)
    roundTrip(HeartbeatMessage.self, text)
}

/// The one-pass MEDIA_STATUS reader must give what the tree gives whenever it gives
/// anything, and the JSON writer must write what Foundation's JSONEncoder writes.
func fastPathsAgree(_ bytes: [UInt8], _ text: String) {
    let tree = Result { () throws(CastProtocolError) in
        try CastJSON.decodeThroughTree(MediaMessage.self, fromUTF8: bytes, namespace: CastNamespace.mediaURN)
    }
    if let fast = CastJSON.readMediaStatus(bytes) {
        precondition(tree == .success(fast), "the one-pass reader disagrees with the tree on:\n\(text)")
    }
    if case .success(let message) = tree {
        precondition(CastJSON.encode(message) == CastJSON.encodeWithFoundation(message), "the JSON writer differs from JSONEncoder on:\n\(text)")
    }
}

func roundTrip<M: CastJSONMessage>(_: M.Type, _ text: String) {
    guard let value = try? CastJSON.decode(M.self, from: text, namespace: M.namespace.urn) else { return }
    let encoded = CastJSON.encode(value)
    let back: M
    do {
        back = try CastJSON.decode(M.self, from: encoded, namespace: M.namespace.urn)
    } catch {
        preconditionFailure("re-encoded \(M.self) does not decode: \(error)\n\(encoded)")
    }
    precondition(back == value, "\(M.self) changed on the round trip:\n\(text)\n\(encoded)")
}

@main
struct FuzzMain {
    static func main() {
        #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(
            LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                check(Array(UnsafeBufferPointer(start: data, count: size)))
                return 0
            })
        #else
        let files = CommandLine.arguments.dropFirst()
        guard !files.isEmpty else {
            FileHandle.standardError.write(Data("usage: castproto-fuzz FILE...   (replays inputs; scripts/fuzz.sh fuzzes)\n".utf8))
            exit(2)
        }
        for path in files {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("castproto-fuzz: cannot read \(path)\n".utf8))
                exit(1)
            }
            check(Array(data))
        }
        print("replayed \(files.count) input(s): no crash")
        #endif
    }
}
