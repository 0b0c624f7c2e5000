// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// Language codes in subtitle file names (ISO 639-1 two letters, ISO 639-2 three letters
/// in both its B and T forms) and the name each language has in itself, which is how a
/// track menu is easiest to read for the people who need that track.
public enum Languages {
    struct Entry {
        var one: String
        var three: [String]
        var name: String
    }

    static let table: [Entry] = [
        Entry(one: "ar", three: ["ara"], name: "العربية"),
        Entry(one: "bg", three: ["bul"], name: "Български"),
        Entry(one: "ca", three: ["cat"], name: "Català"),
        Entry(one: "cs", three: ["cze", "ces"], name: "Čeština"),
        Entry(one: "da", three: ["dan"], name: "Dansk"),
        Entry(one: "de", three: ["ger", "deu"], name: "Deutsch"),
        Entry(one: "el", three: ["gre", "ell"], name: "Ελληνικά"),
        Entry(one: "en", three: ["eng"], name: "English"),
        Entry(one: "es", three: ["spa"], name: "Español"),
        Entry(one: "et", three: ["est"], name: "Eesti"),
        Entry(one: "eu", three: ["baq", "eus"], name: "Euskara"),
        Entry(one: "fa", three: ["per", "fas"], name: "فارسی"),
        Entry(one: "fi", three: ["fin"], name: "Suomi"),
        Entry(one: "fr", three: ["fre", "fra"], name: "Français"),
        Entry(one: "ga", three: ["gle"], name: "Gaeilge"),
        Entry(one: "gl", three: ["glg"], name: "Galego"),
        Entry(one: "he", three: ["heb"], name: "עברית"),
        Entry(one: "hi", three: ["hin"], name: "हिन्दी"),
        Entry(one: "hr", three: ["hrv"], name: "Hrvatski"),
        Entry(one: "hu", three: ["hun"], name: "Magyar"),
        Entry(one: "id", three: ["ind"], name: "Bahasa Indonesia"),
        Entry(one: "is", three: ["ice", "isl"], name: "Íslenska"),
        Entry(one: "it", three: ["ita"], name: "Italiano"),
        Entry(one: "ja", three: ["jpn"], name: "日本語"),
        Entry(one: "ko", three: ["kor"], name: "한국어"),
        Entry(one: "lt", three: ["lit"], name: "Lietuvių"),
        Entry(one: "lv", three: ["lav"], name: "Latviešu"),
        Entry(one: "ms", three: ["may", "msa"], name: "Bahasa Melayu"),
        Entry(one: "nb", three: ["nob"], name: "Norsk bokmål"),
        Entry(one: "nl", three: ["dut", "nld"], name: "Nederlands"),
        Entry(one: "no", three: ["nor"], name: "Norsk"),
        Entry(one: "pl", three: ["pol"], name: "Polski"),
        Entry(one: "pt", three: ["por"], name: "Português"),
        Entry(one: "ro", three: ["rum", "ron"], name: "Română"),
        Entry(one: "ru", three: ["rus"], name: "Русский"),
        Entry(one: "sk", three: ["slo", "slk"], name: "Slovenčina"),
        Entry(one: "sl", three: ["slv"], name: "Slovenščina"),
        Entry(one: "sr", three: ["srp"], name: "Српски"),
        Entry(one: "sv", three: ["swe"], name: "Svenska"),
        Entry(one: "th", three: ["tha"], name: "ไทย"),
        Entry(one: "tr", three: ["tur"], name: "Türkçe"),
        Entry(one: "uk", three: ["ukr"], name: "Українська"),
        Entry(one: "vi", three: ["vie"], name: "Tiếng Việt"),
        Entry(one: "zh", three: ["chi", "zho"], name: "中文"),
    ]

    /// The language a code names: returns the BCP 47 tag to send (the two-letter code where
    /// one exists; a region as in `pt-BR` is kept) and the language's own name.
    public static func lookup(_ code: String) -> (tag: String, name: String)? {
        let lower = code.lowercased().replacingUnderscores()
        let parts = lower.split(separator: "-", maxSplits: 1)
        guard let base = parts.first.map(String.init) else { return nil }
        guard let e = table.first(where: { $0.one == base || $0.three.contains(base) }) else { return nil }
        if parts.count == 2, parts[1].count == 2, parts[1].allSatisfy(\.isLetter) {
            return ("\(e.one)-\(parts[1].uppercased())", "\(e.name) (\(parts[1].uppercased()))")
        }
        return (e.one, e.name)
    }
}

extension String {
    fileprivate func replacingUnderscores() -> String { String(map { $0 == "_" ? "-" : $0 }) }
}
