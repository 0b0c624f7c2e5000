// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import Synchronization

/// Request ids: positive, unique per sender connection, never reused, at most 2³¹−1
/// (Chromium reads them as 32-bit ints). `0` is reserved for unsolicited messages from
/// the receiver (status broadcasts), so it is never produced here.
public enum RequestID {
    /// The id receivers put on messages nobody asked for.
    public static let unsolicited = 0
    public static let max = Int(Int32.max)

    /// True when a message with this id is a broadcast rather than a reply.
    public static func isUnsolicited(_ id: Int?) -> Bool { id == nil || id == unsolicited }
}

/// Hands out request ids for one connection: 1, 2, 3, … wrapping back to 1 after 2³¹−1.
/// Safe to share between tasks.
public final class RequestIDGenerator: Sendable {
    private let state: Mutex<Int>

    /// - Parameter start: the first id handed out (clamped into 1...2³¹−1).
    public init(start: Int = 1) {
        state = Mutex(min(max(start, 1), RequestID.max))
    }

    public func next() -> Int {
        state.withLock { current in
            let id = current
            current = current >= RequestID.max ? 1 : current + 1
            return id
        }
    }
}
