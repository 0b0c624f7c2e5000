// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// A small, strict reader of XML 1.0 documents for the playlists CastDeck opens (XSPF):
/// elements, attributes, text, CDATA, comments and processing instructions, the five
/// predefined entities and character references. It refuses DOCTYPE declarations (so no
/// entity expansion, no external entities), mismatched or unclosed tags, text outside the root
/// element and nesting deeper than `maxDepth`. Errors name the line.
///
/// Why not Foundation's XMLParser: it is libxml2 underneath, and linking it loads libxml2
/// and ICU (libicuuc, 30 MB of libicudata) into every process that links LocalMedia (castctl
/// and the window) at start-up, for a format few users open.
struct XMLEvents {
    enum Event: Equatable {
        case start(name: String, attributes: [String: String])
        case end(name: String)
        case text(String)
    }

    struct Failure: Error, CustomStringConvertible {
        var line: Int
        var reason: String
        var description: String { "line \(line): \(reason)" }
    }

    static let maxDepth = 64

    private let bytes: [UInt8]
    private var i = 0
    private var line = 1

    /// Reads `text` and calls `handle` for every event in document order.
    static func read(_ text: String, _ handle: (Event) -> Void) throws(Failure) {
        var reader = XMLEvents(bytes: Array(text.utf8))
        try reader.run(handle)
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func run(_ handle: (Event) -> Void) throws(Failure) {
        var open: [String] = []
        var sawRoot = false
        var text: [UInt8] = []
        func flush() {
            if !text.isEmpty {
                handle(.text(String(decoding: text, as: UTF8.self)))
                text.removeAll(keepingCapacity: true)
            }
        }
        if starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }  // a UTF-8 byte order mark
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "<") {
                if starts(with: "<!--") {
                    try skip(past: "-->", what: "a comment")
                } else if starts(with: "<![CDATA[") {
                    guard !open.isEmpty else { throw fail("CDATA outside the root element") }
                    i += 9
                    let begin = i
                    try skip(past: "]]>", what: "a CDATA section")
                    text.append(contentsOf: bytes[begin..<(i - 3)])
                } else if starts(with: "<!") {
                    throw fail("declarations (<!DOCTYPE, <!ENTITY) are not read")
                } else if starts(with: "<?") {
                    try skip(past: "?>", what: "a processing instruction")
                } else if starts(with: "</") {
                    flush()
                    i += 2
                    let name = try readName()
                    skipSpace()
                    try expect(">")
                    guard let last = open.popLast() else { throw fail("</\(name)> closes nothing") }
                    guard last == name else { throw fail("</\(name)> closes <\(last)>") }
                    handle(.end(name: name))
                } else {
                    flush()
                    guard !(open.isEmpty && sawRoot) else { throw fail("a second root element") }
                    i += 1
                    let name = try readName()
                    var attributes: [String: String] = [:]
                    var selfClosing = false
                    while true {
                        let hadSpace = skipSpace()
                        guard i < bytes.count else { throw fail("<\(name) is not closed") }
                        if bytes[i] == UInt8(ascii: ">") {
                            i += 1
                            break
                        }
                        if starts(with: "/>") {
                            i += 2
                            selfClosing = true
                            break
                        }
                        guard hadSpace else { throw fail("attributes of <\(name)> must be separated by spaces") }
                        let key = try readName()
                        skipSpace()
                        try expect("=")
                        skipSpace()
                        guard attributes[key] == nil else { throw fail("<\(name)> repeats the attribute \(key)") }
                        attributes[key] = try readQuoted()
                    }
                    sawRoot = true
                    guard open.count < Self.maxDepth else { throw fail("it nests elements more than \(Self.maxDepth) deep") }
                    handle(.start(name: name, attributes: attributes))
                    if selfClosing { handle(.end(name: name)) } else { open.append(name) }
                }
            } else if c == UInt8(ascii: "&") {
                guard !open.isEmpty else { throw fail("text outside the root element") }
                text.append(contentsOf: try readReference())
            } else {
                if c == UInt8(ascii: "\n") { line += 1 }
                if open.isEmpty {
                    guard c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D else { throw fail("text outside the root element") }
                } else {
                    text.append(c)
                }
                i += 1
            }
        }
        guard sawRoot else { throw fail("there is no root element") }
        if let last = open.last { throw fail("<\(last)> is not closed") }
    }

    private func fail(_ reason: String) -> Failure { Failure(line: line, reason: reason) }

    private func starts(with prefix: String) -> Bool { starts(with: Array(prefix.utf8)) }
    private func starts(with prefix: [UInt8]) -> Bool {
        i + prefix.count <= bytes.count && bytes[i..<(i + prefix.count)].elementsEqual(prefix)
    }

    private mutating func skip(past end: String, what: String) throws(Failure) {
        let marker = Array(end.utf8)
        while i < bytes.count {
            if starts(with: marker) {
                i += marker.count
                return
            }
            if bytes[i] == UInt8(ascii: "\n") { line += 1 }
            i += 1
        }
        throw fail("\(what) is not closed")
    }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = i
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) {
            if bytes[i] == 0x0A { line += 1 }
            i += 1
        }
        return i > start
    }

    private mutating func expect(_ s: Character) throws(Failure) {
        guard i < bytes.count, bytes[i] == s.asciiValue! else { throw fail("expected “\(s)”") }
        i += 1
    }

    /// A name: letters, digits, `_ : . -` and any non-ASCII byte; not starting with a digit, `.` or `-`.
    private mutating func readName() throws(Failure) -> String {
        let start = i
        while i < bytes.count {
            let b = bytes[i]
            let ok =
                b >= 0x80 || (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == 0x5F || b == 0x3A
                || (i > start && ((b >= 0x30 && b <= 0x39) || b == 0x2E || b == 0x2D))
            guard ok else { break }
            i += 1
        }
        guard i > start else { throw fail("expected a name") }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    private mutating func readQuoted() throws(Failure) -> String {
        guard i < bytes.count, bytes[i] == 0x22 || bytes[i] == 0x27 else { throw fail("an attribute value must be quoted") }
        let quote = bytes[i]
        i += 1
        var value: [UInt8] = []
        while i < bytes.count, bytes[i] != quote {
            switch bytes[i] {
            case UInt8(ascii: "<"): throw fail("“<” inside an attribute value")
            case UInt8(ascii: "&"): value.append(contentsOf: try readReference())
            default:
                if bytes[i] == 0x0A { line += 1 }
                value.append(bytes[i])
                i += 1
            }
        }
        guard i < bytes.count else { throw fail("an attribute value is not closed") }
        i += 1
        return String(decoding: value, as: UTF8.self)
    }

    /// `&amp;` and the other predefined entities, `&#NN;` and `&#xNN;`, as UTF-8.
    private mutating func readReference() throws(Failure) -> [UInt8] {
        let start = i + 1
        guard let semicolon = bytes[start..<min(bytes.count, start + 12)].firstIndex(of: UInt8(ascii: ";")) else {
            throw fail("“&” that starts no reference (write &amp;)")
        }
        let name = String(decoding: bytes[start..<semicolon], as: UTF8.self)
        i = semicolon + 1
        switch name {
        case "amp": return [UInt8(ascii: "&")]
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "quot": return [0x22]
        case "apos": return [0x27]
        default:
            var digits = Substring(name)
            guard digits.first == "#" else { throw fail("the entity &\(name); is not defined") }
            digits = digits.dropFirst()
            let radix = digits.first == "x" ? 16 : 10
            if radix == 16 { digits = digits.dropFirst() }
            guard let value = UInt32(digits, radix: radix), let scalar = Unicode.Scalar(value), value != 0,
                value >= 0x20 || [0x09, 0x0A, 0x0D].contains(value)
            else { throw fail("&\(name); is not a character XML allows") }
            return Array(String(Character(scalar)).utf8)
        }
    }
}
