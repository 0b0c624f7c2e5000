// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation

/// A subtitle file format CastDeck reads.
public enum SubtitleFormat: String, Sendable, Hashable {
    case srt, webvtt, ass

    /// From a file extension (`srt`, `vtt`, `ass`, `ssa`).
    public init?(extension ext: String) {
        switch ext.lowercased() {
        case "srt": self = .srt
        case "vtt", "webvtt": self = .webvtt
        case "ass", "ssa": self = .ass
        default: return nil
        }
    }
}

/// The result of a conversion: WebVTT text, the character set the source was in, and a
/// warning per cue that could not be used.
public struct WebVTTDocument: Sendable, Hashable {
    public var text: String
    public var cueCount: Int
    public var sourceEncoding: TextEncoding
    public var warnings: [String]
}

/// SRT and ASS/SSA → WebVTT, the only text format the Default Media Receiver reads.
///
/// SRT: CRLF/CR line ends, cue numbers dropped, `,` → `.` in times, hours optional,
/// `<i>`/`<b>`/`<u>` kept, other tags (`<font>`) and ASS-style `{\an8}` overrides removed.
/// ASS: the `[Events]` section's `Format:` decides the field order; `Dialogue:` lines
/// become cues in time order, `\N` a line break, `{\i1}`/`{\b1}`/`{\u1}` become tags and
/// every other override block is removed. Cues that cannot be read are skipped with a
/// warning naming their line; the file fails only when no cue at all is left.
public enum WebVTTConverter {
    public struct Cue: Sendable, Hashable {
        public var start: Double
        public var end: Double
        public var text: String
    }

    public static func convert(_ bytes: [UInt8], format: SubtitleFormat, name: String = "subtitles") throws(LocalMediaError) -> WebVTTDocument {
        let (raw, encoding) = TextDecoding.decode(bytes)
        let text = raw.replacingLineEnds()
        var warnings: [String] = []
        let cues: [Cue]
        switch format {
        case .webvtt:
            // Already WebVTT: pass through (line ends normalised, BOM dropped).
            guard text.hasPrefix("WEBVTT") else { throw .subtitleUnusable(path: name, reason: "a .vtt file must start with WEBVTT") }
            let count = text.components(separatedBy: "-->").count - 1
            return WebVTTDocument(text: text.hasSuffix("\n") ? text : text + "\n", cueCount: count, sourceEncoding: encoding, warnings: [])
        case .srt: cues = parseSRT(text, warnings: &warnings)
        case .ass: cues = parseASS(text, warnings: &warnings)
        }
        guard !cues.isEmpty else {
            throw .subtitleUnusable(path: name, reason: warnings.isEmpty ? "it holds no subtitle cue" : "no cue could be read (\(warnings[0]))")
        }
        return WebVTTDocument(text: render(cues), cueCount: cues.count, sourceEncoding: encoding, warnings: warnings)
    }

    static func render(_ cues: [Cue]) -> String {
        var out = "WEBVTT\n\n"
        for cue in cues {
            out += "\(timestamp(cue.start)) --> \(timestamp(cue.end))\n\(cue.text)\n\n"
        }
        return out
    }

    static func timestamp(_ seconds: Double) -> String {
        let ms = Int((seconds * 1000).rounded())
        let h = ms / 3_600_000, m = ms / 60_000 % 60, s = ms / 1000 % 60, f = ms % 1000
        func pad(_ n: Int, _ w: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, w - s.count)) + s
        }
        return "\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2)).\(pad(f, 3))"
    }

    // MARK: - SRT

    static func parseSRT(_ text: String, warnings: inout [String]) -> [Cue] {
        var cues: [Cue] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var i = 0
        while i < lines.count {
            // Skip blank lines between blocks.
            while i < lines.count, lines[i].trimmingSpaces.isEmpty { i += 1 }
            guard i < lines.count else { break }
            let blockStart = i
            var block: [Substring] = []
            while i < lines.count, !lines[i].trimmingSpaces.isEmpty {
                block.append(lines[i])
                i += 1
            }
            // The timing line is the first or second line (after the cue number).
            guard let t = block.prefix(2).firstIndex(where: { $0.contains("-->") }), let timing = parseTiming(block[t]) else {
                warnings.append("line \(blockStart + 1): no valid “start --> end” time, cue skipped")
                continue
            }
            // A block can run on when a blank line is missing: a number line followed by a
            // timing line inside the text starts the next cue. Handle the common case of
            // text lines only.
            let (start, end) = timing
            let body = block[(t + 1)...].map { cleanSRTLine(String($0)) }.filter { !$0.isEmpty }
            guard end > start else {
                warnings.append("line \(blockStart + 1): the cue ends before it starts, cue skipped")
                continue
            }
            guard !body.isEmpty else { continue }
            cues.append(Cue(start: start, end: end, text: body.joined(separator: "\n")))
        }
        return cues
    }

    /// `00:01:02,345 --> 00:01:04,000` (comma or dot; hours optional; 1–3 fraction digits; position hints after the end time ignored).
    static func parseTiming(_ line: Substring) -> (Double, Double)? {
        let parts = line.components(separatedBy: "-->")
        guard parts.count == 2 else { return nil }
        let endField = parts[1].trimmingSpaces.split(separator: " ").first.map(String.init) ?? ""
        guard let a = parseTime(String(parts[0].trimmingSpaces)), let b = parseTime(endField) else { return nil }
        return (a, b)
    }

    static func parseTime(_ s: String) -> Double? {
        let t = s.replacingOccurrences(of: ",", with: ".")
        let fields = t.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count) else { return nil }
        var total = 0.0
        for (n, f) in fields.enumerated() {
            let isLast = n == fields.count - 1
            if isLast {
                let sp = f.split(separator: ".", omittingEmptySubsequences: false)
                guard (1...2).contains(sp.count), let whole = Int64.digits(sp[0]) else { return nil }
                var frac = 0.0
                if sp.count == 2 {
                    guard let digits = Int64.digits(sp[1]), sp[1].count <= 3 else { return nil }
                    frac = Double(digits) / pow10(sp[1].count)
                }
                guard whole < 60 || fields.count == 1 else { return nil }
                total = total * 60 + Double(whole) + frac
            } else {
                guard let v = Int64.digits(f) else { return nil }
                if n > 0, v >= 60 { return nil }
                total = total * 60 + Double(v)
            }
        }
        // A time past 100,000 hours is no subtitle timing (and once made the WebVTT
        // timestamp trap converting milliseconds to Int: found by Fuzz/castdeck-fuzz webvtt).
        return total <= maxSeconds ? total : nil
    }

    /// The latest time a cue may have: 99,999:59:59.999.
    static let maxSeconds = 99_999 * 3600 + 3599.999

    private static func pow10(_ n: Int) -> Double { [1, 10, 100, 1000][n] }

    /// Keeps `<i> <b> <u>` (and their closing tags), removes other tags and `{...}`
    /// overrides, and escapes what WebVTT would read as markup.
    static func cleanSRTLine(_ line: String) -> String {
        var out = ""
        var i = line.startIndex
        while i < line.endIndex {
            let c = line[i]
            if c == "{", let close = line[i...].firstIndex(of: "}"), line[line.index(after: i)...].hasPrefix("\\") {
                i = line.index(after: close)
                continue
            }
            if c == "<", let close = line[i...].firstIndex(of: ">") {
                let tag = line[line.index(after: i)..<close].lowercased().trimmingCharacters(in: .whitespaces)
                if ["i", "b", "u", "/i", "/b", "/u"].contains(tag) {
                    out += "<\(tag)>"
                } else if !isTagLike(tag) {
                    out += "&lt;" + escapeText(String(line[line.index(after: i)..<close])) + "&gt;"
                }
                i = line.index(after: close)
                continue
            }
            out += escapeText(String(c))
            i = line.index(after: i)
        }
        return out.replacingOccurrences(of: "-->", with: "->").trimmingCharacters(in: .whitespaces)
    }

    private static func isTagLike(_ tag: String) -> Bool {
        let name = tag.hasPrefix("/") ? tag.dropFirst() : Substring(tag)
        guard let first = name.first, first.isLetter else { return false }
        return true
    }

    static func escapeText(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(c)
            }
        }
        return out
    }

    // MARK: - ASS / SSA

    static func parseASS(_ text: String, warnings: inout [String]) -> [Cue] {
        var cues: [Cue] = []
        var inEvents = false
        var fields: [String] = ["layer", "start", "end", "style", "name", "marginl", "marginr", "marginv", "effect", "text"]
        for (n, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingSpaces
            if line.hasPrefix("[") {
                inEvents = line.lowercased() == "[events]"
                continue
            }
            guard inEvents else { continue }
            if line.lowercased().hasPrefix("format:") {
                fields = line.dropFirst("format:".count).split(separator: ",").map { $0.trimmingSpaces.lowercased() }
                continue
            }
            guard line.lowercased().hasPrefix("dialogue:") else { continue }
            let values = line.dropFirst("dialogue:".count).split(separator: ",", maxSplits: max(0, fields.count - 1), omittingEmptySubsequences: false)
            guard values.count == fields.count, let si = fields.firstIndex(of: "start"), let ei = fields.firstIndex(of: "end"),
                let ti = fields.firstIndex(of: "text"),
                let start = parseTime(String(values[si].trimmingSpaces)), let end = parseTime(String(values[ei].trimmingSpaces))
            else {
                warnings.append("line \(n + 1): unreadable Dialogue line, cue skipped")
                continue
            }
            guard end > start else {
                warnings.append("line \(n + 1): the cue ends before it starts, cue skipped")
                continue
            }
            let body = cleanASSText(String(values[ti]))
            guard !body.isEmpty else { continue }
            cues.append(Cue(start: start, end: end, text: body))
        }
        // Stable sort by start: ASS files list events in any order.
        return cues.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
    }

    /// `{\i1}` → `<i>`, `{\b1}` → `<b>`, `{\u1}` → `<u>` (and 0 closes), other overrides removed,
    /// `\N`/`\n` line breaks, `\h` a space; drawings (`\p1`) dropped; open tags closed at the end.
    static func cleanASSText(_ text: String) -> String {
        var out = ""
        var open: [String] = []
        var drawing = false
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            if c == "{", let close = text[i...].firstIndex(of: "}") {
                let block = text[text.index(after: i)..<close]
                for tag in block.split(separator: "\\").map({ $0.trimmingSpaces }) {
                    for style in ["i", "b", "u"]
                    where tag == "\(style)1" || tag == "\(style)0" || (style == "b" && tag.count > 1 && tag.hasPrefix("b") && Int(tag.dropFirst()) != nil) {
                        let on = tag != "\(style)0"
                        if on, !open.contains(style) {
                            out += "<\(style)>"
                            open.append(style)
                        }
                        if !on, let k = open.lastIndex(of: style) {
                            for s in open[k...].reversed() { out += "</\(s)>" }
                            let reopen = open[(k + 1)...]
                            open.removeSubrange(k...)
                            for s in reopen {
                                out += "<\(s)>"
                                open.append(s)
                            }
                        }
                    }
                    if tag.hasPrefix("p"), let level = Int(tag.dropFirst()) { drawing = level > 0 }
                }
                i = text.index(after: close)
                continue
            }
            if c == "\\", let next = text[text.index(after: i)...].first {
                switch next {
                case "N", "n":
                    out += "\n"
                    i = text.index(i, offsetBy: 2)
                    continue
                case "h":
                    out += " "
                    i = text.index(i, offsetBy: 2)
                    continue
                default: break
                }
            }
            if !drawing {
                switch c {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                default: out.append(c)
                }
            }
            i = text.index(after: i)
        }
        for s in open.reversed() { out += "</\(s)>" }
        let lines = out.replacingOccurrences(of: "-->", with: "->").split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingSpaces }.filter { !$0.isEmpty && $0 != "<i></i>" && $0 != "<b></b>" }
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// CRLF and lone CR become LF.
    func replacingLineEnds() -> String {
        replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }
}
