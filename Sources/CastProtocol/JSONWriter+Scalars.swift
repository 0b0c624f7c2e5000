// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// CastJSONWriter's scalars and JSONValue trees, written as JSONEncoder writes them; the writer's overview is in JSONWriter.swift.
extension CastJSONWriter {
    // MARK: scalars

    static func writeInt(_ i: Int64, to out: inout [UInt8]) {
        if i >= 0, i < 10 {
            out.append(UInt8(ascii: "0") + UInt8(i))
            return
        }
        out.append(contentsOf: String(i).utf8)
    }

    static func writeDouble(_ d: Double, to out: inout [UInt8]) throws {
        guard d.isFinite else { throw Unsupported() }
        out.append(contentsOf: d.description.utf8)
        // Integral values without ".0", as JSONEncoder writes them.
        let n = out.count
        if n >= 2, out[n - 2] == UInt8(ascii: "."), out[n - 1] == UInt8(ascii: "0") { out.removeLast(2) }
    }

    static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        // Most strings need no escape: copy them whole.
        let plain = s.withUTF8 { bytes -> Bool in
            for b in bytes where b < 0x20 || b == 0x22 || b == 0x5C { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if plain {
            out.append(UInt8(ascii: "\""))
            return
        }
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// JSONValue is the free-form tree; written directly instead of through its Codable path.
    static func write(json: JSONValue, to out: inout [UInt8]) throws {
        switch json {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): writeInt(i, to: &out)
        case .double(let d): try writeDouble(d, to: &out)
        case .string(let s): writeString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                try write(json: item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let sorted = members.storage.sorted { compare($0.key, $1.key) < 0 }
            for (i, member) in sorted.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                try write(json: member.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}
