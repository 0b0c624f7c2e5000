// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
/// AppModel produces sentences for people (errors, banners) but must not import GLib; the app
/// installs gettext here at start-up. The marker is `tr(...)`, as in the UI, so xgettext
/// collects these strings too.
public enum Localization {
    nonisolated(unsafe) public static var translate: @Sendable (String) -> String = { $0 }
    /// Whether the UI runs right to left (Persian): mixed-direction labels are ordered for it.
    nonisolated(unsafe) public static var isRightToLeft = false
}

extension Localization {
    /// `text` with Western digits in the UI language's digits (the translation of
    /// "0123456789"; Persian gives ۰۱۲۳۴۵۶۷۸۹).
    public static func localizeDigits(_ text: String) -> String {
        // TRANSLATORS: the ten digits of your language, zero to nine (Persian: ۰۱۲۳۴۵۶۷۸۹).
        let d = Array(tr("0123456789"))
        guard d.count == 10, d.first != "0" else { return text }
        return String(text.map { c in c.isASCII ? (c.wholeNumberValue.map { d[$0] } ?? c) : c })
    }
}

extension Localization {
    /// What separates the parts of one line: "Queue · 3 items", "Ad 1 of 3 · 0:14",
    /// "The Testers · 3:25", a device row's "Chromecast · Ready to cast". Translated, because a
    /// middle dot beside Persian or Arabic digits reads as a zero (۰): "۳ · " looks like "۳۰".
    public static var separator: String {
        // TRANSLATORS: separates the parts of one line, as in "Queue · 3 items", "Ad 1 of 3 · 0:14" and
        // "artist · 3:25"; keep the spaces around it. Use a mark that cannot be read as a digit in your
        // script: in Persian and Arabic the middle dot looks like zero (۰), so use "، " or " — " there.
        tr(" · ")
    }

    /// `parts` (the empty ones left out) joined by the separator.
    public static func joinParts(_ parts: [String]) -> String {
        parts.filter { !$0.isEmpty }.joined(separator: separator)
    }
}

func tr(_ message: String, _ args: CustomStringConvertible...) -> String {
    var out = Localization.translate(message)
    for (i, a) in args.enumerated() {
        let text = (a is any BinaryInteger || a is any BinaryFloatingPoint) ? Localization.localizeDigits(a.description) : a.description
        out = out.split(separator: "{\(i)}", omittingEmptySubsequences: false).joined(separator: text)
    }
    return out
}

/// Text from the device as the window shows it: at most `limit` characters (grapheme
/// clusters), then "…". Labels ellipsize what does not fit anyway; this keeps a title of tens of
/// thousands of characters from being laid out in full on the main loop (issue 17: a 60,000-
/// character title stalled the window for a second). `castctl --json` and MPRIS keep the full text.
public func shortened(_ text: String, limit: Int = 500) -> String {
    guard text.utf8.count > limit else { return text }  // cheap test first: bytes ≥ characters
    var end = text.startIndex
    var n = 0
    while end < text.endIndex, n < limit {
        text.formIndex(after: &end)
        n += 1
    }
    var cut = String(text[..<end])
    // One "character" can be thousands of combining marks: cut those by scalar.
    if cut.unicodeScalars.count > limit * 8 { cut = String(String.UnicodeScalarView(cut.unicodeScalars.prefix(limit))) }
    return cut.utf8.count == text.utf8.count ? text : cut + "…"
}

/// "1:05:03" / "4:07" / "0:25", using Western digits (what Cast apps show everywhere).
public func formatTime(_ seconds: Double) -> String {
    guard seconds.isFinite else { return "0:00" }
    // Times come from the device: negative ones read 0:00, absurd ones stop at Int32.max seconds.
    let total = Int(min(max(0, seconds), Double(Int32.max)).rounded(.down))
    let h = total / 3600, m = (total % 3600) / 60, s = total % 60
    let ss = s < 10 ? "0\(s)" : "\(s)"
    if h > 0 { return "\(h):\(m < 10 ? "0\(m)" : "\(m)"):\(ss)" }
    return "\(m):\(ss)"
}
