// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk

/// gettext itself, bound to the "castdeck" text domain: the C calls and nothing else. The
/// rules around it (the `tr("…")` / `ntr` markers, `{0}` placeholders, digits in the UI
/// language) are AppModel's `Localization`, the one localisation stack; the application points
/// `Localization.translate` and `translatePlural` here at start-up, so AppModel stays GLib-free.
/// xgettext extracts `--keyword=tr` and `ntr:1,2` (see po/update-pot.sh).
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
