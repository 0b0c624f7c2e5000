// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// What the tree decoder does with a part of a message it cannot read (protocol.md §17,
// "What real devices send"): it leaves that part out, notes where and why, and reads the
// rest. Only the parts a message cannot be without (its `type`, a JSON object at all) still
// make decoding fail.
//
//   an optional member that cannot be read       → absent        (TreeKeyedContainer.present)
//   an array element that cannot be read         → left out      (ElementDroppingArray)
//   an object where an array is expected         → one element   (ElementDroppingArray)
//   "12.5" / "3" where a number is expected       → the number    (unbox)
//   "true" / 0 / 1 where a boolean is expected    → the boolean   (unbox)
//   a known enum value in other letter case       → that value    (OpenStringEnum)
//
// The notes travel in a task-local list that `CastJSON.decode(_:fromUTF8:namespace:notes:)`
// installs for one decode; nothing is recorded (and nothing costs) when no part is dropped.

/// One part of a received message that was left out because it could not be read.
public struct DroppedPart: Hashable, Sendable, CustomStringConvertible {
    /// Where in the message, as `status.[0].media.tracks.[2]`.
    public var path: String
    /// Why, in words.
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}

/// The list the tree decoder adds to while one message is decoded.
final class DroppedParts: @unchecked Sendable {
    var parts: [DroppedPart] = []

    @TaskLocal static var current: DroppedParts?

    static func note(_ error: any Error, at path: [any CodingKey]) {
        guard let list = current else { return }
        let reason = (error as? DecodingError).map(CastJSON.describe) ?? "\(error)"
        list.parts.append(DroppedPart(path: CastJSON.pathText(path), reason: reason))
    }
}

/// Arrays whose unreadable elements are dropped instead of failing the array.
protocol ElementDroppingArray {
    static func readKeepingWhatCanBeRead(_ elements: [JSONValue], path: [any CodingKey]) -> Self
}

extension Array: ElementDroppingArray where Element: Decodable {
    static func readKeepingWhatCanBeRead(_ elements: [JSONValue], path: [any CodingKey]) -> [Element] {
        var out: [Element] = []
        out.reserveCapacity(elements.count)
        for (i, element) in elements.enumerated() {
            do {
                out.append(try unbox(element, as: Element.self, parent: path, key: TreeCodingKey(intValue: i)))
            } catch {
                DroppedParts.note(error, at: path + [TreeCodingKey(intValue: i)])
            }
        }
        return out
    }
}

extension CastJSON {
    /// A coding path as text: `status.[0].media`.
    static func pathText(_ path: [any CodingKey]) -> String {
        let p = path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        return p.isEmpty ? "the message" : p
    }

    /// Decodes like `decode(_:fromUTF8:namespace:)` and also says which parts were left out.
    public static func decode<T: Decodable>(
        _ type: T.Type, fromUTF8 bytes: some Collection<UInt8>, namespace: String, dropped: inout [DroppedPart]
    ) throws(CastProtocolError) -> T {
        if T.self == MediaMessage.self, let message = readMediaStatus(bytes) { return message as! T }
        let list = DroppedParts()
        let result: Result<T, CastProtocolError> = DroppedParts.$current.withValue(list) {
            do throws(CastProtocolError) {
                return .success(try decodeThroughTree(type, fromUTF8: bytes, namespace: namespace))
            } catch {
                return .failure(error)
            }
        }
        dropped += list.parts
        return try result.get()
    }
}

/// A string that holds a number, as some apps send `"duration": "120.5"`.
@inline(__always)
func numberInString(_ value: JSONValue) -> JSONValue? {
    guard case .string(let s) = value else { return nil }
    let t = s.trimmingWhitespace
    if let i = Int64(t) { return .int(i) }
    if let d = Double(t), d.isFinite { return .double(d) }
    return nil
}

/// `"true"`, `"false"`, 0 and 1 where a boolean is expected.
@inline(__always)
func booleanInOtherShape(_ value: JSONValue) -> Bool? {
    switch value {
    case .string(let s):
        switch s.lowercased() {
        case "true": return true
        case "false": return false
        default: return nil
        }
    case .int(0): return false
    case .int(1): return true
    default: return nil
    }
}

extension String {
    fileprivate var trimmingWhitespace: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[start...end]
    }
}
