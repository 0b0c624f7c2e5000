// SPDX-License-Identifier: GPL-3.0-or-later

/// The members of a large model behind one reference, shared by copies of the model until one
/// of them is changed (copy on write). `MediaInformation` and `MediaStatus` keep their members
/// here: stored inline they are ~600 bytes each, and a status is moved and copied many times
/// between the socket and the window (into its array and message, the session's snapshot,
/// every observer), each time a memmove and a retain for every String in it.
///
/// Sendable because the storage is never changed while shared: `fields` copies it first
/// unless this value holds the only reference.
struct CopyOnWrite<Fields: Sendable>: @unchecked Sendable {
    final class Storage {
        // Access is checked statically: `fields` is reached only through `CopyOnWrite`, which
        // changes it only when the storage is its own, and through a one-pass reader while it
        // fills a new storage that nothing else holds yet.
        @exclusivity(unchecked) var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private(set) var storage: Storage

    init(_ fields: Fields) { storage = Storage(fields) }

    /// A value of a storage nothing else holds: the readers fill one in place rather than
    /// build the members apart and copy them in at the end.
    init(filled storage: Storage) { self.storage = storage }

    /// The members; changing them first makes the storage this value's own.
    var fields: Fields {
        get { storage.fields }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
            yield &storage.fields
        }
    }

    /// Whether both values share one storage (then they are equal without comparing members).
    func isShared(with other: CopyOnWrite) -> Bool { storage === other.storage }
}

/// A model whose members are kept in a `CopyOnWrite` box (`box`), as `Fields`.
protocol CopyOnWriteModel {
    associatedtype Fields: Sendable
    var box: CopyOnWrite<Fields> { get set }
    init(box: CopyOnWrite<Fields>)
}

extension CopyOnWriteModel {
    init(fields: Fields) { self.init(box: CopyOnWrite(fields)) }

    /// A value of a storage nothing else holds (see `CopyOnWrite.init(filled:)`).
    init(filled storage: CopyOnWrite<Fields>.Storage) { self.init(box: CopyOnWrite(filled: storage)) }

    /// The members, for reading; changing them through `fields` first makes the storage this
    /// value's own.
    var fields: Fields {
        get { box.fields }
        _modify { yield &box.fields }
    }
}
