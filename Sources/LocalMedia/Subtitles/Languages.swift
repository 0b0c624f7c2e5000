// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// The languages CastDeck recognises in subtitle file names and in the language codes of
/// streams and tracks: ISO 639-1 (two letters) and ISO 639-2 (three letters, B and T forms),
/// each with its English name, its name in itself, and the English name iso-codes uses, which
/// is the message id of that package's translations (how the window shows a language's name
/// in the user's language; see `TrackFacts` for naming a track).
public enum Languages {
    public struct Language: Sendable, Hashable {
        /// The ISO 639-1 code, which is also the BCP 47 tag sent to devices.
        public let code: String
        let threeLetterCodes: [String]
        /// "German".
        public let englishName: String
        /// "Deutsch".
        public let ownName: String
        /// "German"; "Spanish; Castilian" where iso-codes names it more fully.
        public let isoName: String

        init(_ code: String, _ three: [String], _ english: String, _ own: String, iso: String? = nil) {
            self.code = code
            threeLetterCodes = three
            englishName = english
            ownName = own
            isoName = iso ?? english
        }

        /// Whether `text` is nothing but a name or code of this language (any case).
        public func isNamed(by text: String) -> Bool {
            let t = text.lowercased()
            return t == code || threeLetterCodes.contains(t) || t == englishName.lowercased() || t == ownName.lowercased()
        }
    }

    static let table: [Language] = [
        Language("ar", ["ara"], "Arabic", "العربية"),
        Language("bg", ["bul"], "Bulgarian", "Български"),
        Language("ca", ["cat"], "Catalan", "Català", iso: "Catalan; Valencian"),
        Language("cs", ["cze", "ces"], "Czech", "Čeština"),
        Language("da", ["dan"], "Danish", "Dansk"),
        Language("de", ["ger", "deu"], "German", "Deutsch"),
        Language("el", ["gre", "ell"], "Greek", "Ελληνικά", iso: "Greek, Modern (1453-)"),
        Language("en", ["eng"], "English", "English"),
        Language("es", ["spa"], "Spanish", "Español", iso: "Spanish; Castilian"),
        Language("et", ["est"], "Estonian", "Eesti"),
        Language("eu", ["baq", "eus"], "Basque", "Euskara"),
        Language("fa", ["per", "fas"], "Persian", "فارسی"),
        Language("fi", ["fin"], "Finnish", "Suomi"),
        Language("fr", ["fre", "fra"], "French", "Français"),
        Language("ga", ["gle"], "Irish", "Gaeilge"),
        Language("gl", ["glg"], "Galician", "Galego"),
        Language("he", ["heb"], "Hebrew", "עברית"),
        Language("hi", ["hin"], "Hindi", "हिन्दी"),
        Language("hr", ["hrv"], "Croatian", "Hrvatski"),
        Language("hu", ["hun"], "Hungarian", "Magyar"),
        Language("id", ["ind"], "Indonesian", "Bahasa Indonesia"),
        Language("is", ["ice", "isl"], "Icelandic", "Íslenska"),
        Language("it", ["ita"], "Italian", "Italiano"),
        Language("ja", ["jpn"], "Japanese", "日本語"),
        Language("ko", ["kor"], "Korean", "한국어"),
        Language("lt", ["lit"], "Lithuanian", "Lietuvių"),
        Language("lv", ["lav"], "Latvian", "Latviešu"),
        Language("ms", ["may", "msa"], "Malay", "Bahasa Melayu"),
        Language("nb", ["nob"], "Norwegian Bokmål", "Norsk bokmål", iso: "Bokmål, Norwegian; Norwegian Bokmål"),
        Language("nl", ["dut", "nld"], "Dutch", "Nederlands", iso: "Dutch; Flemish"),
        Language("no", ["nor"], "Norwegian", "Norsk"),
        Language("pl", ["pol"], "Polish", "Polski"),
        Language("pt", ["por"], "Portuguese", "Português"),
        Language("ro", ["rum", "ron"], "Romanian", "Română", iso: "Romanian; Moldavian; Moldovan"),
        Language("ru", ["rus"], "Russian", "Русский"),
        Language("sk", ["slo", "slk"], "Slovak", "Slovenčina"),
        Language("sl", ["slv"], "Slovenian", "Slovenščina"),
        Language("sr", ["srp"], "Serbian", "Српски"),
        Language("sv", ["swe"], "Swedish", "Svenska"),
        Language("th", ["tha"], "Thai", "ไทย"),
        Language("tr", ["tur"], "Turkish", "Türkçe"),
        Language("uk", ["ukr"], "Ukrainian", "Українська"),
        Language("vi", ["vie"], "Vietnamese", "Tiếng Việt"),
        Language("zh", ["chi", "zho"], "Chinese", "中文"),
    ]

    /// The language a code or tag names (`en`, `eng`, `pt_BR`, `pt-BR`, any case), with the
    /// region when the tag has a two-letter one (`BR`); nil for codes not in the table and
    /// for `und` (undetermined).
    public static func find(_ code: String) -> (language: Language, region: String?)? {
        let parts = String(code.lowercased().map { $0 == "_" ? "-" : $0 }).split(separator: "-", maxSplits: 1)
        guard let base = parts.first.map(String.init),
            let language = table.first(where: { $0.code == base || $0.threeLetterCodes.contains(base) })
        else { return nil }
        if parts.count == 2, parts[1].count == 2, parts[1].allSatisfy(\.isLetter) { return (language, parts[1].uppercased()) }
        return (language, nil)
    }

    /// The BCP 47 tag to send for a code: the two-letter code, with its region (`pt-BR`).
    public static func tag(_ code: String) -> String? {
        find(code).map { found in found.region.map { "\(found.language.code)-\($0)" } ?? found.language.code }
    }

    /// The language an English word names, as release groups write them (`English.srt`, `2_French.srt`).
    static func named(inEnglish word: String) -> Language? {
        let w = word.lowercased()
        return table.first { $0.englishName.lowercased() == w }
    }
}
