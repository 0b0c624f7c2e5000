// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// Adapts the video bit rate to the loss the receiver reports (RTCP fraction lost, ten
/// reports a second): down by a fifth when more than 4 % is lost, at most every 2 seconds;
/// back up by a tenth after a clean second, at most every 5 seconds; never outside
/// `minimum`…`maximum`. Each change restarts the encoder, so small ones are not made.
public struct BitrateController: Sendable {
    public let minimum: Int
    public let maximum: Int
    public private(set) var current: Int
    private var lastChange: Double
    private var cleanReports = 0

    public init(start: Int, minimum: Int, maximum: Int, now: Double) {
        self.minimum = min(minimum, maximum)
        self.maximum = maximum
        current = min(max(start, self.minimum), maximum)
        lastChange = now
    }

    /// The new bit rate when this report calls for one.
    public mutating func report(fractionLost: UInt8, now: Double) -> Int? {
        var wanted = current
        if fractionLost > 10 {
            cleanReports = 0
            guard now - lastChange >= 2 else { return nil }
            wanted = max(minimum, current * 4 / 5)
        } else if fractionLost == 0 {
            cleanReports += 1
            guard cleanReports >= 10, now - lastChange >= 5 else { return nil }
            wanted = min(maximum, current * 11 / 10)
        } else {
            cleanReports = 0
            return nil
        }
        guard abs(wanted - current) * 20 >= current else { return nil }  // less than 5 %: not worth a restart
        current = wanted
        lastChange = now
        cleanReports = 0
        return wanted
    }
}
