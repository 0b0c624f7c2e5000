// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// The scratch stacks JSONParser collects members and elements on (ScratchStack, ParserScratch); the parser's overview is in JSONParser.swift.
#if canImport(Glibc)
import Glibc
#endif

/// A stack of parsed values that hands its top run over as an array by moving it: no copy of
/// each value, no retain and release, no per-element destroy through the type's metadata (what
/// slicing an Array and removing the subrange cost: a fifth of parsing an untyped tree).
final class ScratchStack<Element> {
    fileprivate var storage: UnsafeMutablePointer<Element>
    private(set) var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 32) {
        storage = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    @inline(__always)
    func push(_ element: consuming Element) {
        if count == capacity { grow() }
        (storage + count).initialize(to: element)
        count += 1
    }

    /// Doubles the room: out of line, so that `push` stays small enough to inline.
    @inline(never)
    private func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity *= 2
    }

    /// The elements from `start` to the top, in order, taken off the stack.
    ///
    /// The array is made with `reserveCapacity` and filled by `append`, not with
    /// `Array(unsafeUninitializedCapacity:)`: that initializer allocates through a generic
    /// function of the standard library that looks the array's storage class up in the
    /// runtime's metadata cache on every call (~450 instructions, a tenth of parsing an
    /// untyped tree), where `reserveCapacity` is specialized here and finds it in a cached
    /// accessor.
    func popArray(from start: Int) -> [Element] {
        let n = count - start
        var array: [Element] = []
        array.reserveCapacity(n)
        for i in start..<count { array.append((storage + i).move()) }
        count = start
        return array
    }

    /// Drops the elements from `start` to the top.
    func removeAll(from start: Int) {
        (storage + start).deinitialize(count: count - start)
        count = start
    }
}

extension ScratchStack where Element == UInt64 {
    /// Whether the values from `start` to the top all differ; false also when there are more
    /// than `limit` of them (the caller then checks another way).
    func topRunIsDistinct(from start: Int, upTo limit: Int) -> Bool {
        let n = count - start
        guard n <= limit else { return false }
        if n > 6 {
            // Equal values set the same bit of 256; if no two values share a bit, they differ.
            var bits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            var shared = false
            for i in start..<count {
                let b = storage[i] >> 56
                let bit: UInt64 = 1 &<< (b & 63)
                switch b >> 6 {
                case 0:
                    shared = shared || bits.0 & bit != 0
                    bits.0 |= bit
                case 1:
                    shared = shared || bits.1 & bit != 0
                    bits.1 |= bit
                case 2:
                    shared = shared || bits.2 & bit != 0
                    bits.2 |= bit
                default:
                    shared = shared || bits.3 & bit != 0
                    bits.3 |= bit
                }
            }
            if !shared { return true }
        }
        var i = start + 1
        while i < count {
            let v = storage[i]
            var j = start
            while j < i {
                if storage[j] == v { return false }
                j += 1
            }
            i += 1
        }
        return true
    }
}

/// The parser's three scratch stacks, kept for this thread between parses (in a POSIX
/// thread-specific slot): making them for every parse was six allocations and six frees of
/// the ~70 a MEDIA_STATUS tree needs. A parse takes them out of the slot and puts them back
/// empty when it is done, so a parse started inside another on the same thread gets its own;
/// stacks that grew past `keptRoom` (only hostile input makes them) are not kept.
final class ParserScratch {
    let members = ScratchStack<JSONObject.Member>(capacity: 64)
    let elements = ScratchStack<JSONValue>(capacity: 64)
    let marks = ScratchStack<UInt64>(capacity: 64)

    static let keptRoom = 4096

    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        // A thread that ends releases what its slot holds.
        let created = pthread_key_create(&key) { held in
            if let held { Unmanaged<ParserScratch>.fromOpaque(held).release() }
        }
        precondition(created == 0, "pthread_key_create failed (\(created))")
        return key
    }()

    static func take() -> ParserScratch {
        guard let held = pthread_getspecific(slot) else { return ParserScratch() }
        pthread_setspecific(slot, nil)
        return Unmanaged<ParserScratch>.fromOpaque(held).takeRetainedValue()
    }

    static func giveBack(_ scratch: ParserScratch) {
        // A parse that failed part-way leaves values on the stacks.
        scratch.members.removeAll(from: 0)
        scratch.elements.removeAll(from: 0)
        scratch.marks.removeAll(from: 0)
        guard max(scratch.members.capacity, scratch.elements.capacity, scratch.marks.capacity) <= keptRoom,
            pthread_getspecific(slot) == nil
        else { return }
        pthread_setspecific(slot, Unmanaged.passRetained(scratch).toOpaque())
    }
}
