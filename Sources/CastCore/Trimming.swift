// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

extension StringProtocol {
    /// The text without white space (spaces, tabs, new lines) at either end.
    public func trimmingWhitespace() -> String {
        var s = self[...]
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
