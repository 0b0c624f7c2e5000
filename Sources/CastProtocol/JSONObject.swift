// SPDX-License-Identifier: GPL-3.0-or-later

/// A JSON object: its members in the order they were read or added, each name once.
///
/// Not a Dictionary: Cast messages carry many small objects (customData, every object of an
/// untyped tree), and a dictionary allocates a hash table for each and hashes every name with
/// a seeded SipHash: a tenth of decoding a media status went to its four one- and two-member
/// customData objects. Here the members sit in one array, and a name is found by comparing
/// names. Objects with many members (only hostile input has thousands) are still handled in
/// linear time where it matters: repeated names are removed with a hash table above
/// `smallCount` members, and equality compares through one.
///
/// Equality and hashing ignore member order, as for a dictionary.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    public typealias Element = (key: String, value: JSONValue)

    /// Up to this many members, repeated names and equality are checked pairwise.
    static let smallCount = 16

    /// One member. Stored as a struct rather than as `Element`: an array of tuples is
    /// destroyed element by element through the tuple's runtime metadata, and each new array
    /// of them looks that metadata up again.
    struct Member: Sendable, Hashable {
        var key: String
        var value: JSONValue
    }

    var storage: [Member]

    /// The members in order.
    public var members: [Element] { storage.map { (key: $0.key, value: $0.value) } }

    public init() { storage = [] }

    /// The members of `dictionary`, in the order of their names (a dictionary has no order of
    /// its own, and this keeps output and tests deterministic).
    public init(_ dictionary: [String: JSONValue]) {
        storage = dictionary.sorted { $0.key < $1.key }.map { Member(key: $0.key, value: $0.value) }
    }

    /// `members` in order; a name given more than once keeps its first place and its last value
    /// (what assigning them one by one to a dictionary would keep).
    public init(members: some Sequence<(String, JSONValue)>) {
        storage = members.map { Member(key: $0.0, value: $0.1) }
        removeRepeatedNames()
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(members: elements) }

    /// Members as the parser read them (see `init(members:)` for repeated names).
    init(parsedMembers: [Member]) {
        storage = parsedMembers
        removeRepeatedNames()
    }

    /// Members the parser has found to have different names (`JSONParser.nameMark`).
    init(distinctMembers: [Member]) {
        storage = distinctMembers
    }

    /// Whether two member names are the same: compared as UTF-8 code units, as RFC 8259 §8.3
    /// advises for interoperable implementations (and far cheaper than String's comparison by
    /// canonical equivalence, which a name lookup does not need).
    @inline(__always)
    static func sameName(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
    }

    private mutating func removeRepeatedNames() {
        let n = storage.count
        guard n > 1 else { return }
        if n <= Self.smallCount {
            var i = 1
            while i < storage.count {
                let name = storage[i].key
                if let j = storage[..<i].firstIndex(where: { Self.sameName($0.key, name) }) {
                    storage[j].value = storage[i].value
                    storage.remove(at: i)
                } else {
                    i += 1
                }
            }
            return
        }
        var firstPlace: [String: Int] = [:]
        firstPlace.reserveCapacity(n)
        var kept: [Member] = []
        kept.reserveCapacity(n)
        for member in storage {
            if let place = firstPlace[member.key] {
                kept[place].value = member.value
            } else {
                firstPlace[member.key] = kept.count
                kept.append(member)
            }
        }
        if kept.count != n { storage = kept }
    }

    // MARK: Collection

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.count }
    public subscript(position: Int) -> Element { (key: storage[position].key, value: storage[position].value) }

    // MARK: Dictionary-like access

    /// The value of the member `key`, or nil. Setting nil removes the member; setting a new
    /// name appends it.
    public subscript(key: String) -> JSONValue? {
        get { storage.first { Self.sameName($0.key, key) }?.value }
        set {
            let place = storage.firstIndex { Self.sameName($0.key, key) }
            switch (place, newValue) {
            case (let i?, let v?): storage[i].value = v
            case (let i?, nil): storage.remove(at: i)
            case (nil, let v?): storage.append(Member(key: key, value: v))
            case (nil, nil): break
            }
        }
    }

    public var keys: [String] { storage.map(\.key) }
    public var values: [JSONValue] { storage.map(\.value) }

    /// The members as a dictionary.
    public var dictionary: [String: JSONValue] {
        Dictionary(storage.lazy.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    // MARK: Equality, hashing

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        guard a.storage.count == b.storage.count else { return false }
        if a.storage.count <= smallCount {
            return a.storage.allSatisfy { m in b[m.key] == m.value }
        }
        let other = b.dictionary
        return a.storage.allSatisfy { m in other[m.key] == m.value }
    }

    public func hash(into hasher: inout Hasher) {
        // Independent of order: the members' own hashes are summed.
        var sum = 0
        for m in storage {
            var h = Hasher()
            h.combine(m.key)
            h.combine(m.value)
            sum &+= h.finalize()
        }
        hasher.combine(storage.count)
        hasher.combine(sum)
    }
}

extension JSONObject: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(try [String: JSONValue](from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try dictionary.encode(to: encoder)
    }
}

extension JSONObject: CustomStringConvertible {
    public var description: String {
        "[" + storage.map { "\(String(reflecting: $0.key)): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
