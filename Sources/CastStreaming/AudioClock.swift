// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// RTP times of an audio stream. A packet's time is the previous packet's plus its length in
/// samples, so the receiver plays the packets back to back without gaps or overlaps however
/// unevenly they arrive from the encoder (ffmpeg may hand several over at once). The first
/// packet, and any packet once the counted time has fallen more than `behindLimit` seconds
/// behind the clock (the capture stalled, or the encoder started again) or run more than
/// `aheadLimit` seconds ahead of it, takes its time from the clock instead: its length before
/// `wallTime`, so that the sound lines up with the picture, whose times are the clock's.
public struct AudioClock: Sendable, Equatable {
    /// The RTP time after the last packet, in samples since the session started.
    private var next: Int64?
    /// Seconds since the session started when the last packet was sent.
    private var sentAt = 0.0
    public var behindLimit = 0.2
    public var aheadLimit = 1.0
    /// Times the counted time was put back to the clock's (after the first packet).
    public private(set) var resyncs = 0

    public init() {}

    /// The RTP time of a packet of `samples` samples sent at `wallTime` (seconds since the
    /// session started), at `rate` samples a second.
    public mutating func next(samples: Int, wallTime: Double, rate: Int) -> UInt32 {
        // The session's first instants: the packet cannot have begun before the session did.
        let clock = max(0, Int64((wallTime * Double(rate)).rounded()) - Int64(samples))
        var time = next ?? clock
        if next != nil, clock - time > Int64(behindLimit * Double(rate)) || time - clock > Int64(aheadLimit * Double(rate)) {
            time = clock
            resyncs += 1
        }
        next = time + Int64(samples)
        sentAt = wallTime
        return UInt32(truncatingIfNeeded: time)
    }

    /// The RTP time matching `wallTime`, for a sender report: the counted time carried on by
    /// the clock since the last packet; nil before the first.
    public func now(wallTime: Double, rate: Int) -> UInt32? {
        guard let next else { return nil }
        return UInt32(truncatingIfNeeded: max(0, next + Int64(((wallTime - sentAt) * Double(rate)).rounded())))
    }
}
