// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// Seconds as a clock reads them, "1:05:03" / "4:07" / "0:25", in Western digits: the one
/// formatter of times as m:ss. The window writes the digits in the UI language
/// (AppModel's `formatTime`); castctl and the conversion plan print it as it is.
/// Times come from devices: negative or non-finite ones read 0:00, absurd ones stop at
/// Int32.max seconds. `rounding`: how a fraction of a second goes (the clock: down).
public func clockText(_ seconds: Double, rounding: FloatingPointRoundingRule = .down) -> String {
    let total = seconds.isFinite ? Int(min(max(0, seconds), Double(Int32.max)).rounded(rounding)) : 0
    let h = total / 3600, m = (total % 3600) / 60, s = total % 60
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
}
