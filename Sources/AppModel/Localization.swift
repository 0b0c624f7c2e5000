// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastCore
import Foundation
import LocalMedia

/// The one localisation stack of the window: `tr("…")` and `ntr` (the xgettext markers),
/// `{0}` placeholders, digits and the decimal sign in the UI language, separators, language
/// names. AppModel must not import GLib, so gettext comes in from outside: the application
/// points `translate` and `translatePlural` at GLibInterop's `Gettext` when it starts; headless
/// tests keep the English defaults. CastDeckUI and castdeck use these same `tr`/`ntr`.
public enum Localization {
    nonisolated(unsafe) public static var translate: @Sendable (String) -> String = { $0 }
    /// The plural form for `n` (gettext's ngettext); English rules until the app installs gettext.
    nonisolated(unsafe) public static var translatePlural: @Sendable (String, String, Int) -> String = { $2 == 1 ? $0 : $1 }
    /// Whether the UI runs right to left (Persian): mixed-direction labels are ordered for it.
    nonisolated(unsafe) public static var isRightToLeft = false
    /// A language's name from iso-codes' English name ("German") in the user's language, when
    /// iso-codes' translations are installed (the app installs gettext's `iso_639-2` domain).
    nonisolated(unsafe) public static var translateLanguageName: @Sendable (String) -> String = { $0 }
    /// The languages the user reads, most preferred first (`fa`, `en`): the locale's, as
    /// gettext reads them from the environment. Subtitles in the first are turned on.
    nonisolated(unsafe) public static var preferredLanguages: [String] = languages(fromEnvironment: ProcessInfo.processInfo.environment)
}

// MARK: numbers

extension Localization {
    /// `text` with Western digits in the UI language's digits (the translation of
    /// "0123456789"; Persian gives ۰۱۲۳۴۵۶۷۸۹). The one place numbers shown to people get
    /// their digits: times, counts in sentences, the style editor's numbers (GLibInterop's `tr`
    /// is pointed here at start-up).
    public static func localizeDigits(_ text: String) -> String {
        let d = digits
        guard d.first != "0" else { return text }
        return String(text.map { c in c.isASCII ? (c.wholeNumberValue.map { d[$0] } ?? c) : c })
    }

    /// The UI language's ten digits, zero to nine.
    static var digits: [Character] {
        // TRANSLATORS: the ten digits of your language, zero to nine (Persian: ۰۱۲۳۴۵۶۷۸۹).
        let d = Array(tr("0123456789"))
        return d.count == 10 ? d : Array("0123456789")
    }

    /// The UI language's decimal sign.
    static var decimalSign: String {
        // TRANSLATORS: the decimal sign of your language (Persian: ٫).
        tr(".")
    }

    /// `value` with `fractionDigits` digits after the decimal sign, in the UI language's digits
    /// and decimal sign: 1.5 → "1.5", in Persian "۱٫۵".
    public static func formatDecimal(_ value: Double, fractionDigits: Int) -> String {
        guard value.isFinite else { return localizeDigits("0") }
        var scale = 1.0
        for _ in 0..<max(0, fractionDigits) { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 1e15 else { return localizeDigits(String(value)) }
        let whole = Int64(scaled / scale)
        let fraction = Int64(scaled) - whole * Int64(scale)
        var text = (value < 0 && scaled != 0 ? "-" : "") + String(whole)
        if fractionDigits > 0 {
            let f = String(fraction)
            text += decimalSign + String(repeating: "0", count: fractionDigits - f.count) + f
        }
        return localizeDigits(text)
    }

    /// A number typed or shown in the UI language's digits and decimal sign (or in Western
    /// ones, with a point or comma): "۱٫۵" → 1.5. Nil when it is not a number.
    public static func parseDecimal(_ text: String) -> Double? {
        let d = digits
        let sign = decimalSign
        var western = ""
        for c in text.trimmingCharacters(in: .whitespaces) {
            if let i = d.firstIndex(of: c) {
                western.append(Character(String(i)))
            } else if String(c) == sign || c == "," || c == "." || c == "٫" {
                western.append(".")
            } else {
                western.append(c)
            }
        }
        return Double(western)
    }
}

extension Localization {
    /// A device address ("10.0.0.2:8009", "[fe80::1]:8009") kept left to right inside text of
    /// either direction (a right-to-left sentence would otherwise reorder its numbers);
    /// anything else, such as a device's name, is returned as it is.
    public static func isolatedAddress(_ s: String) -> String {
        guard let first = s.first, first.isASCII, first.isNumber || first == "[" else { return s }
        return "\u{2066}" + s + "\u{2069}"
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

// MARK: languages and track names

extension Localization {
    /// A language's name in the user's language: iso-codes' translation of its English name
    /// ("German" → "آلمانی", cut at the first ";" where iso-codes lists several names, and
    /// without a "(1453-)" of dates), else the English name.
    public static func languageName(_ language: Languages.Language) -> String {
        let translated = translateLanguageName(language.isoName)
        guard translated != language.isoName, !translated.isEmpty else { return language.englishName }
        var name = Substring(translated)
        if let cut = name.firstIndex(where: { $0 == ";" || $0 == "؛" }) { name = name[..<cut] }
        if let open = name.lastIndex(of: "("), name[open...].contains(where: \.isNumber) { name = name[..<open] }
        let trimmed = name.trimmingWhitespace()
        return trimmed.isEmpty ? language.englishName : trimmed
    }

    /// The words of track names in the user's language (see LocalMedia's `TrackFacts`): the
    /// window's menus and the tracks of the files it casts are named with these.
    public static let trackWords = TrackWords(
        language: { languageName($0) },
        // The file name and a title come from outside: isolated, so their direction does not
        // reorder the words around them.
        unknownLanguage: { tr("Unknown language ({0})", "\u{2068}\($0)\u{2069}") },
        numbered: { kind, n in kind == .text ? tr("Subtitle {0}", n) : tr("Audio track {0}", n) },
        track: { tr("Track {0}", $0) },
        withTitle: { joinParts([$0, "\u{2068}\($1)\u{2069}"]) },
        // TRANSLATORS: forced subtitles show only what is not in the audio's language (signs, a
        // foreign line); {0} is the track's name, such as "English".
        forced: { tr("{0} (forced)", $0) },
        // TRANSLATORS: SDH: subtitles for the deaf and hard of hearing (they describe sounds too);
        // {0} is the track's name, such as "English".
        hearingImpaired: { tr("{0} (SDH)", $0) })

    /// The languages in gettext's order: `LANGUAGE` (a list, unless the locale is C), then the
    /// first of `LC_ALL`, `LC_MESSAGES`, `LANG`; `pt_BR.UTF-8` reads `pt-BR`.
    static func languages(fromEnvironment env: [String: String]) -> [String] {
        func tag(_ locale: Substring) -> String? {
            let base = locale.split(separator: ".").first.map { $0.split(separator: "@").first ?? $0 } ?? ""
            guard !base.isEmpty, base != "C", base != "POSIX" else { return nil }
            return base.replacingOccurrences(of: "_", with: "-")
        }
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { env[$0] }.first { !$0.isEmpty }
        var out: [String] = []
        if let locale, locale != "C", locale != "POSIX" {
            out += (env["LANGUAGE"] ?? "").split(separator: ":").compactMap(tag)
        }
        if let locale, let own = tag(Substring(locale)) { out.append(own) }
        var seen = Set<String>()
        return out.filter { seen.insert($0).inserted }
    }
}

/// Translate a message (marker for xgettext: `tr`); `{0}`, `{1}`, … are replaced by the
/// arguments, numbers in the UI language's digits, so translators can reorder them.
public func tr(_ message: String, _ args: CustomStringConvertible...) -> String {
    Localization.substitute(Localization.translate(message), args)
}

/// Translate with a plural form chosen by `n` (marker for xgettext: `ntr:1,2`).
public func ntr(_ singular: String, _ plural: String, _ n: Int, _ args: CustomStringConvertible...) -> String {
    Localization.substitute(Localization.translatePlural(singular, plural, n), args)
}

extension Localization {
    static func substitute(_ template: String, _ args: [CustomStringConvertible]) -> String {
        var out = template
        for (i, a) in args.enumerated() {
            let text = (a is any BinaryInteger || a is any BinaryFloatingPoint) ? localizeDigits(a.description) : a.description
            out = out.split(separator: "{\(i)}", omittingEmptySubsequences: false).joined(separator: text)
        }
        return out
    }
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

/// "1:05:03" / "4:07" / "0:25" in the UI language's digits (Persian "۴:۰۷"): the seek bar's
/// times, the ad countdown, queue durations.
public func formatTime(_ seconds: Double) -> String {
    Localization.localizeDigits(clockText(seconds))
}
