// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// A notice is one or more translated sentences ("Living Room did not answer. Check that it is
/// on and on this network."). A toast has room for one short line, so the window shows the first
/// sentence there and keeps the rest, with the technical detail, for the Details dialog.
extension AppModel.Notice {
    /// The first sentence of `text` (all of it when it is one sentence).
    public var headline: String { Self.split(text).head }

    /// What the toast leaves out: the sentences after the first, then the technical detail.
    /// Nil when the toast says everything.
    public var explanation: String? {
        let parts = [Self.split(text).rest, detail ?? ""].filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: "\n\n")
    }

    /// Whether the toast needs a Details button.
    public var hasMore: Bool { explanation != nil || retryDeviceID != nil }

    /// Splits after the first sentence end that is followed by more text: ". ", "! ", "? ",
    /// the Arabic and Persian question mark "؟ ", the Urdu full stop, and the CJK full stops
    /// (which need no space after them). An ellipsis ("…") does not end a sentence, nor does a
    /// full stop inside a name or a number ("v1.2", "192.168.1.2").
    static func split(_ text: String) -> (head: String, rest: String) {
        let chars = Array(text)
        var i = 0
        while i < chars.count - 1 {
            let c = chars[i], next = chars[i + 1]
            let spaced = ".!?؟۔".contains(c) && next.isWhitespace
            let wide = "。！？".contains(c)
            if spaced || wide {
                let head = String(chars[...i]).trimmingWhitespace()
                let rest = String(chars[(i + 1)...]).trimmingWhitespace()
                if !rest.isEmpty { return (head, rest) }
            }
            i += 1
        }
        return (text, "")
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s = s.dropFirst() }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        return String(s)
    }
}
