// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk

/// Translations through gettext, bound to the "castdeck" text domain.
///
/// Swift cannot name a function `_`, so the marker is `tr("…")`; xgettext extracts it with
/// `--keyword=tr` (see po/update-pot.sh). Placeholders are `{0}`, `{1}`, … so translators can
/// reorder them (`tr("Ad {0} of {1}", a, b)`).
public enum Gettext {
    public static let domain = "castdeck"
    /// iso-codes' translations of language names (optional: English names without them).
    public static let languageNamesDomain = "iso_639-2"

    /// Sets the locale from the environment and binds the domain to `localeDir`.
    public static func setUp(localeDir: String) {
        setlocale(LC_ALL, "")
        bindtextdomain(domain, localeDir)
        bind_textdomain_codeset(domain, "UTF-8")
        bind_textdomain_codeset(languageNamesDomain, "UTF-8")
        textdomain(domain)
    }

    // dgettext returns its argument when there is no translation, so the result must be
    // read while the C string of `message` is still alive (inside withCString).
    public static func translate(_ message: String) -> String {
        message.withCString { String(cString: dgettext(domain, $0)) }
    }

    /// The translation in another package's domain, such as iso-codes' `iso_639-2` (language
    /// names), bound where the system keeps its translations.
    public static func translate(_ message: String, domain other: String) -> String {
        message.withCString { m in other.withCString { d in String(cString: dgettext(d, m)) } }
    }

    public static func translate(_ singular: String, _ plural: String, _ n: Int) -> String {
        singular.withCString { s in
            plural.withCString { p in String(cString: dngettext(domain, s, p, UInt(max(0, n)))) }
        }
    }

    /// True when the current locale's text direction is right-to-left.
    @MainActor public static var isRightToLeft: Bool {
        gtk_widget_get_default_direction() == GTK_TEXT_DIR_RTL
    }
}

extension Gettext {
    /// `text` with its Western digits written in the UI language's digits. The rule lives in
    /// AppModel (`Localization.localizeDigits`), which this floor module cannot import: the
    /// app points this at it when it starts; until then digits stay as they are.
    nonisolated(unsafe) public static var localizeDigits: @Sendable (String) -> String = { $0 }

    /// An argument as text: numbers in the UI language's digits.
    static func argument(_ a: CustomStringConvertible) -> String {
        (a is any BinaryInteger || a is any BinaryFloatingPoint) ? localizeDigits(a.description) : a.description
    }
}

/// Replaces `{0}`, `{1}`, … with the arguments.
public func substitute(_ template: String, _ args: [String]) -> String {
    var out = template
    for (i, a) in args.enumerated() { out = out.replacingAll("{\(i)}", with: a) }
    return out
}

/// Translate a message (marker for xgettext: `tr`).
public func tr(_ message: String, _ args: CustomStringConvertible...) -> String {
    substitute(Gettext.translate(message), args.map(Gettext.argument))
}

/// Translate with a plural form chosen by `n` (marker for xgettext: `ntr:1,2`).
public func ntr(_ singular: String, _ plural: String, _ n: Int, _ args: CustomStringConvertible...) -> String {
    substitute(Gettext.translate(singular, plural, n), args.map(Gettext.argument))
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
