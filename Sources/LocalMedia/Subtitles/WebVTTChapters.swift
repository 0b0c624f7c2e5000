// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AsyncHTTPClient
import CastCore
import Foundation
import NIOCore

/// Chapter lists as WebVTT: what a text track of subtype CHAPTERS points at (its
/// `trackContentId`), read on the sender so the window and castctl can list, mark and jump to
/// chapters; and the file CastDeck serves for a local file's container chapters.
///
/// Reading is tolerant, as a browser's is: a cue whose timing cannot be read, or that ends
/// before it starts, is skipped; NOTE, STYLE and REGION blocks are ignored; a cue's text lines
/// are its title, with tags removed and the usual character references decoded. Only a file
/// that is not WebVTT at all, or holds no chapter cue, is refused, with a sentence that says
/// which. Chapters come out in time order; a list longer than `maxChapters` is cut there.
public enum WebVTTChapters {
    /// Why a chapter file gives no chapters (shown as it is, after the track's URL).
    public struct Unusable: Error, Sendable, Equatable, CustomStringConvertible {
        public var reason: String
        public init(_ reason: String) { self.reason = reason }
        public var description: String { reason }
    }

    /// More chapters than anyone picks from; what a hostile file may list beyond is dropped.
    public static let maxChapters = 1000
    /// A title longer than this is cut (metadata comes from anywhere).
    static let maxTitle = 200
    /// The most of a chapter file that is read (a chapter file of 1,000 cues is ~60 KB).
    public static let maxBytes = 1 << 20

    public static func parse(_ bytes: [UInt8]) throws(Unusable) -> [MediaChapter] {
        let text = TextDecoding.decode(bytes).text.replacingLineEnds()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first, first.hasPrefix("WEBVTT"), first.count == 6 || first.dropFirst(6).first == " " || first.dropFirst(6).first == "\t"
        else {
            throw Unusable("it is not a WebVTT file (it does not start with WEBVTT)")
        }
        var chapters: [MediaChapter] = []
        var i = 0
        // The header runs to the first blank line.
        while i < lines.count, !lines[i].trimmingSpaces.isEmpty { i += 1 }
        while i < lines.count, chapters.count < maxChapters {
            while i < lines.count, lines[i].trimmingSpaces.isEmpty { i += 1 }
            guard i < lines.count else { break }
            var block: [Substring] = []
            while i < lines.count, !lines[i].trimmingSpaces.isEmpty {
                block.append(lines[i])
                i += 1
            }
            if let word = block[0].split(separator: " ", maxSplits: 1).first.map({ $0.split(separator: "\t").first ?? $0 }),
                ["NOTE", "STYLE", "REGION"].contains(word)
            {
                continue
            }
            // The timing line is the first, or the second after a cue identifier.
            guard let t = block.prefix(2).firstIndex(where: { $0.contains("-->") }),
                let (start, end) = WebVTTConverter.parseTiming(block[t]), end >= start
            else { continue }
            let title = block[(t + 1)...].map { plainText($0) }.filter { !$0.isEmpty }.joined(separator: " ")
            chapters.append(MediaChapter(start: start, end: end, title: String(title.prefix(maxTitle))))
        }
        guard !chapters.isEmpty else { throw Unusable("it holds no chapter cue") }
        return chapters.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
    }

    /// A cue line as plain text: tags (`<b>`, `<v Name>`, `<00:01.000>`) removed, `&amp;`
    /// `&lt;` `&gt;` `&nbsp;` `&lrm;` `&rlm;` decoded, spaces trimmed.
    static func plainText(_ line: Substring) -> String {
        var out = ""
        var i = line.startIndex
        while i < line.endIndex {
            let c = line[i]
            if c == "<", let close = line[i...].firstIndex(of: ">") {
                i = line.index(after: close)
                continue
            }
            if c == "&", let semi = line[i...].prefix(8).firstIndex(of: ";"),
                let decoded = entities[String(line[line.index(after: i)..<semi])]
            {
                out += decoded
                i = line.index(after: semi)
                continue
            }
            out.append(c)
            i = line.index(after: i)
        }
        return out.trimmingCharacters(in: .whitespaces)
    }

    private static let entities = ["amp": "&", "lt": "<", "gt": ">", "nbsp": "\u{A0}", "lrm": "\u{200E}", "rlm": "\u{200F}"]

    /// The chapters as a WebVTT file (titles escaped: `&`, `<`, `>`, so no title holds `-->`).
    public static func render(_ chapters: [MediaChapter]) -> String {
        WebVTTConverter.render(
            chapters.map {
                WebVTTConverter.Cue(start: $0.start, end: $0.end, text: WebVTTConverter.escapeText($0.title))
            })
    }

    /// The chapters as a `data:` URL, a chapter track that needs no server.
    public static func dataURL(_ chapters: [MediaChapter]) -> String {
        "data:text/vtt;base64," + Data(render(chapters).utf8).base64EncodedString()
    }

    /// Reads the chapter track at `url`: `http(s):` through the shared HTTP client (at most
    /// `maxBytes`), or a `data:` URL.
    public static func fetch(_ url: String, client: HTTPClient = .shared, timeout: TimeAmount = .seconds(5)) async throws(Unusable) -> [MediaChapter] {
        let bytes: [UInt8]
        if url.lowercased().hasPrefix("data:") {
            guard let data = decodeDataURL(url) else { throw Unusable("its data: URL cannot be read") }
            bytes = data
        } else {
            guard CORSCheck.isRemote(url) else { throw Unusable("it is neither an http(s) nor a data: URL") }
            do {
                let response = try await client.execute(HTTPClientRequest(url: url), timeout: timeout)
                guard (200..<300).contains(response.status.code) else {
                    throw Unusable("the server answered \(response.status.code) \(response.status.reasonPhrase)")
                }
                bytes = Array(buffer: try await response.body.collect(upTo: maxBytes))
            } catch let e as Unusable {
                throw e
            } catch let e as NIOTooManyBytesError {
                _ = e
                throw Unusable("it is larger than \(maxBytes >> 20) MB")
            } catch {
                throw Unusable("it could not be fetched (\(error))")
            }
        }
        return try parse(bytes)
    }

    /// `data:[type][;base64],payload`; nil when it is not one.
    static func decodeDataURL(_ url: String) -> [UInt8]? {
        guard let comma = url.firstIndex(of: ",") else { return nil }
        let header = url[url.index(url.startIndex, offsetBy: 5)..<comma].lowercased()
        let payload = String(url[url.index(after: comma)...])
        if header.hasSuffix(";base64") {
            return Data(base64Encoded: payload.removingPercentEncoding ?? payload).map { Array($0) }
        }
        return payload.removingPercentEncoding.map { Array($0.utf8) }
    }
}
