// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

// Fuzz targets for the parsers of outside input other than the Cast wire (that one is
// castproto-fuzz): `webvtt` (SRT/ASS/WebVTT subtitle files → WebVTT), `range` (the HTTP
// Range header of the media server) and `txt` (DNS-SD TXT records of discovery).
//
//     castdeck-fuzz TARGET [libFuzzer flags and corpus dirs]     (built by scripts/fuzz.sh)
//     castdeck-fuzz TARGET FILE...                               (built normally: replays inputs)
//
// The parsers' source files are symbolic links to Sources/LocalMedia and Sources/CastDiscovery,
// compiled into this executable: those modules pull in SwiftNIO, AsyncHTTPClient and BoringSSL,
// which would take far longer to build with the sanitizers than the three parsers themselves.
// Each target checks what the output must be, not only that nothing crashes.
import CastCore
import Foundation

#if FUZZING
import CLibFuzzer
#endif

// MARK: - webvtt

/// A subtitle file in any of the three formats (chosen by the first byte). Whatever converts
/// must be WebVTT a device accepts: `WEBVTT` first; for SRT/ASS every cue a timing line of two
/// well-formed timestamps with start < end, one timing line per counted cue, no cue text that
/// holds `-->` or a blank line (either would break the cue apart), cues in time order for ASS.
func checkWebVTT(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    let format: SubtitleFormat = [.srt, .ass, .webvtt][Int(first) % 3]
    let input = Array(bytes.dropFirst())
    let doc: WebVTTDocument
    do {
        doc = try WebVTTConverter.convert(input, format: format, name: "fuzz.srt")
    } catch {
        precondition(!error.description.isEmpty)
        if verbose { print("rejected: \(error)") }
        return
    }
    if verbose { print(doc.text) }
    precondition(doc.text.hasPrefix("WEBVTT"), "output does not start with WEBVTT")
    precondition(doc.text.hasSuffix("\n"), "output does not end with a line end")
    guard format != .webvtt else { return }
    precondition(doc.cueCount > 0, "a converted document without cues")
    precondition(doc.text.hasPrefix("WEBVTT\n\n"), "header not followed by a blank line")
    // The body: blocks separated by one blank line, each "timing\ntext[\ntext...]".
    let body = doc.text.dropFirst("WEBVTT\n\n".count)
    precondition(body.hasSuffix("\n\n"), "the last cue is not closed by a blank line")
    let blocks = body.dropLast(2).components(separatedBy: "\n\n")
    precondition(blocks.count == doc.cueCount, "\(blocks.count) cue blocks for cueCount \(doc.cueCount)")
    var previousStart = -1.0
    for block in blocks {
        let lines = block.split(separator: "\n", omittingEmptySubsequences: false)
        precondition(lines.count >= 2, "a cue without text: \(block.debugDescription)")
        guard let (start, end) = parseTimingLine(lines[0]) else {
            preconditionFailure("malformed timing line \(lines[0].debugDescription)")
        }
        precondition(start < end, "cue ends before it starts: \(lines[0])")
        if format == .ass { precondition(start >= previousStart, "ASS cues out of time order") }
        previousStart = start
        for line in lines.dropFirst() {
            precondition(!line.isEmpty, "blank line inside a cue")
            precondition(!line.contains("-->"), "cue text holds -->: \(line.debugDescription)")
        }
    }
}

/// `HH:MM:SS.mmm --> HH:MM:SS.mmm` exactly (hours two or more digits), as seconds.
func parseTimingLine(_ line: Substring) -> (Double, Double)? {
    let parts = line.components(separatedBy: " --> ")
    guard parts.count == 2, let a = parseTimestamp(parts[0]), let b = parseTimestamp(parts[1]) else { return nil }
    return (a, b)
}

func parseTimestamp(_ s: String) -> Double? {
    let f = s.split(separator: ":", omittingEmptySubsequences: false)
    guard f.count == 3, f[0].count >= 2, f[1].count == 2, f[2].count == 6 else { return nil }
    let sec = f[2].split(separator: ".", omittingEmptySubsequences: false)
    guard sec.count == 2, sec[0].count == 2, sec[1].count == 3 else { return nil }
    let digits = [f[0], f[1], sec[0], sec[1]]
    guard digits.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
        let h = Double(f[0]), let m = Double(f[1]), let s = Double(sec[0]), let ms = Double(sec[1]), m < 60, s < 60
    else { return nil }
    return h * 3600 + m * 60 + s + ms / 1000
}

// MARK: - range

/// A Range header for a file whose size comes from the first 8 bytes. Whatever the header,
/// a partial answer lies inside the file (0 ≤ first ≤ last < size); a header built from two
/// numbers the fuzzer picks must give exactly what RFC 9110 says.
func checkRange(_ bytes: [UInt8]) {
    guard bytes.count >= 8 else { return }
    var raw: UInt64 = 0
    for b in bytes[..<8] { raw = raw << 8 | UInt64(b) }
    // Sizes near 0 and near the limit matter most: pick from both ends.
    let size = raw & 1 == 0 ? Int64(raw >> 1 & 0xFFFF) : Int64(bitPattern: raw >> 1)
    let header = String(decoding: bytes[8...], as: UTF8.self)
    let r = RangeRequest(header: header, size: size)
    if case .partial(let first, let last) = r {
        precondition(first >= 0 && first <= last && last < size, "range \(first)-\(last) outside a file of \(size) bytes for \(header.debugDescription)")
    }
    // The same numbers in the canonical forms.
    guard bytes.count >= 24 else { return }
    func number(_ at: Int) -> Int64 {
        var v: UInt64 = 0
        for b in bytes[at..<(at + 8)] { v = v << 8 | UInt64(b) }
        return Int64(bitPattern: v >> 1)  // non-negative
    }
    // Offsets up to about twice the size, so both sides of the end are tried (without overflow).
    let span = size == 0 ? 1 : size >= Int64.max / 2 - 1 ? Int64.max : size * 2 + 2
    let a = number(8) % span, b = number(16) % span
    let closed = RangeRequest(header: "bytes=\(a)-\(b)", size: size)
    let expectedClosed: RangeRequest = b < a ? .whole : a >= size ? .unsatisfiable : .partial(first: a, last: min(b, size - 1))
    precondition(closed == expectedClosed, "bytes=\(a)-\(b) of \(size): \(closed), expected \(expectedClosed)")
    let open = RangeRequest(header: "bytes=\(a)-", size: size)
    precondition(open == (a >= size ? .unsatisfiable : .partial(first: a, last: size - 1)), "bytes=\(a)- of \(size): \(open)")
    let suffix = RangeRequest(header: "bytes=-\(b)", size: size)
    let expectedSuffix: RangeRequest = b == 0 || size == 0 ? .unsatisfiable : .partial(first: max(0, size - b), last: size - 1)
    precondition(suffix == expectedSuffix, "bytes=-\(b) of \(size): \(suffix), expected \(expectedSuffix)")
    let several = RangeRequest(header: "bytes=\(a)-\(b), 0-1", size: size)
    precondition(several == .whole, "several ranges must give the whole file")
}

// MARK: - txt

/// A TXT record in DNS wire form (length byte, string; RFC 6763 §6.1). The dictionary has
/// lower-case, non-empty keys without `=`, each with the value of its first occurrence; the
/// device built from it has a non-empty id and name, and a valid id is 32 lower-case hex digits.
func checkTXT(_ bytes: [UInt8]) {
    var entries: [[UInt8]] = []
    var i = 0
    while i < bytes.count {
        let n = Int(bytes[i])
        i += 1
        entries.append(Array(bytes[i..<min(bytes.count, i + n)]))
        i += n
    }
    let txt = TXTRecord.parse(entries)
    var expected: [String: String] = [:]
    for e in entries {
        let key = e.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard !key.isEmpty else { continue }
        let k = String(decoding: key, as: UTF8.self).lowercased()
        let value = e.count > key.count ? Array(e[(key.count + 1)...]) : []
        if expected[k] == nil { expected[k] = String(decoding: value, as: UTF8.self) }
    }
    precondition(txt == expected, "TXT parse \(txt) differs from the first-occurrence rule \(expected)")
    for k in txt.keys {
        precondition(!k.isEmpty && !k.contains("=") && k == k.lowercased(), "bad key \(k.debugDescription)")
    }
    let device = TXTRecord.device(txt: txt, serviceName: "Fuzz-\(entries.count)", host: "127.0.0.1", port: 8009)
    precondition(!device.id.isEmpty && !device.friendlyName.isEmpty, "device without id or name")
    if let id = TXTRecord.normalizedID(txt["id"] ?? "") {
        precondition(id.count == 32 && id.allSatisfy { "0123456789abcdef".contains($0) } && device.id == id, "bad normalised id \(id)")
    }
}

// MARK: - entry point

nonisolated(unsafe) let targets: [String: ([UInt8]) -> Void] = ["webvtt": checkWebVTT, "range": checkRange, "txt": checkTXT]
/// CASTDECK_FUZZ_VERBOSE=1 prints what each replayed input gave.
nonisolated(unsafe) let verbose = ProcessInfo.processInfo.environment["CASTDECK_FUZZ_VERBOSE"] != nil
/// The target chosen on the command line (a global: libFuzzer's callback is a C function).
nonisolated(unsafe) var selected: ([UInt8]) -> Void = checkWebVTT

@main
struct FuzzMain {
    static func main() {
        let args = CommandLine.arguments
        guard args.count >= 2, let check = targets[args[1]] else {
            FileHandle.standardError.write(Data("usage: castdeck-fuzz \(targets.keys.sorted().joined(separator: "|")) [FILE... | libFuzzer flags]\n".utf8))
            exit(2)
        }
        selected = check
        #if FUZZING
        // libFuzzer sees the program name and everything after the target name.
        var kept: [UnsafeMutablePointer<CChar>?] = [CommandLine.unsafeArgv[0]]
        for n in 2..<Int(CommandLine.argc) { kept.append(CommandLine.unsafeArgv[n]) }
        kept.append(nil)
        var argc = Int32(kept.count - 1)
        kept.withUnsafeMutableBufferPointer { buffer in
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
            exit(
                LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                    selected(Array(UnsafeBufferPointer(start: data, count: size)))
                    return 0
                })
        }
        #else
        let files = args.dropFirst(2)
        for path in files {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("castdeck-fuzz: cannot read \(path)\n".utf8))
                exit(1)
            }
            check(Array(data))
        }
        print("replayed \(files.count) input(s): no crash")
        #endif
    }
}
