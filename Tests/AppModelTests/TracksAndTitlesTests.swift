// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol
import Foundation
import LocalMedia
import XCTest

@testable import AppModel

/// Issue 35, media and tracks as a new user meets them: a subtitle file beside a film is named
/// by its language and starts on in the user's language, a track has one name in every menu,
/// a dead link says what the device said, numbers come in the UI's digits, the subtitle style
/// is not offered for music.
@MainActor
final class TracksAndTitlesTests: XCTestCase {
    var saved: (translate: @Sendable (String) -> String, languages: [String])!

    override func setUp() async throws {
        saved = (Localization.translate, Localization.preferredLanguages)
    }

    override func tearDown() async throws {
        Localization.translate = saved.translate
        Localization.preferredLanguages = saved.languages
    }

    func testTheUsersLanguagesComeFromTheLocaleAsGettextReadsIt() async {
        XCTAssertEqual(Localization.languages(fromEnvironment: ["LANGUAGE": "fa:en", "LANG": "fa_IR.UTF-8"]), ["fa", "en", "fa-IR"])
        XCTAssertEqual(Localization.languages(fromEnvironment: ["LC_ALL": "pt_BR.UTF-8@euro", "LANG": "de_DE.UTF-8"]), ["pt-BR"])
        XCTAssertEqual(Localization.languages(fromEnvironment: ["LANGUAGE": "fr", "LANG": "C"]), [], "C ignores LANGUAGE, as gettext does")
        XCTAssertEqual(Localization.languages(fromEnvironment: ["LANGUAGE": "en", "LC_ALL": "C.UTF-8"]), ["en"])
    }

    /// Language names in the user's language come from iso-codes' translations when there are
    /// any: the first of its names, without dates; the English name otherwise.
    func testLanguageNamesInTheUsersLanguage() async throws {
        let german = try XCTUnwrap(Languages.find("ger")?.language)
        let greek = try XCTUnwrap(Languages.find("el")?.language)
        let spanish = try XCTUnwrap(Languages.find("spa")?.language)
        let before = Localization.translateLanguageName
        defer { Localization.translateLanguageName = before }
        Localization.translateLanguageName = { $0 }
        XCTAssertEqual(Localization.languageName(german), "German")
        XCTAssertEqual(Localization.languageName(spanish), "Spanish", "iso-codes' \"Spanish; Castilian\" untranslated reads as the English name")
        Localization.translateLanguageName = {
            ["German": "آلمانی", "Greek, Modern (1453-)": "یونانی امروزی (۱۴۵۳ م. به بعد)", "Spanish; Castilian": "Spanisch; Kastilisch"][$0] ?? $0
        }
        XCTAssertEqual(Localization.languageName(german), "آلمانی")
        XCTAssertEqual(Localization.languageName(greek), "یونانی امروزی")
        XCTAssertEqual(Localization.languageName(spanish), "Spanisch")
    }

    /// The same stream is one name among the subtitles and in the Burn In menu: before, the
    /// menus said "English (en)" and "eng".
    func testAStreamHasOneNameInEveryMenu() async {
        let stream = TrackFacts(kind: .text, language: "eng", title: nil, origin: .stream(number: 1))
        // What the LOAD carries for it, read back from the device's status.
        let loaded = MediaTrack(trackId: 1, type: .text, name: stream.name(Localization.trackWords), language: "en")
        XCTAssertEqual(AppModel.trackLabel(loaded), AppModel.labelText(stream.name(Localization.trackWords)))
        XCTAssertEqual(AppModel.trackLabel(loaded), "\u{200E}English")
        // Another sender's tracks: a name that is the language, and one with more to say.
        XCTAssertEqual(
            AppModel.trackLabel(MediaTrack(trackId: 4, type: .audio, name: "Commentary", language: "en")),
            "\u{200E}English · \u{2068}Commentary\u{2069}")
        XCTAssertEqual(AppModel.trackLabel(MediaTrack(trackId: 9, type: .text)), "\u{200E}Track 9")
    }

    func testADeadLinkSaysWhatTheDeviceSaid() async {
        let network = AppModel.explain(.loadFailed(reason: "LOAD_FAILED", detailedErrorCode: 103), device: "TV")
        XCTAssertEqual(network, "TV could not reach this media. Check that its address works and that the device's network can reach it.")
        XCTAssertFalse(network.contains("format"))
        XCTAssertEqual(
            AppModel.explain(.mediaError(command: "LOAD", reason: nil, detailedErrorCode: 311), device: "TV"), network,
            "an HLS playlist that did not download")
        let format = "TV could not play this media: it is in a format the device does not play."
        XCTAssertEqual(AppModel.explain(.loadFailed(reason: nil, detailedErrorCode: 104), device: "TV"), format)
        XCTAssertEqual(AppModel.explain(.loadFailed(reason: nil, detailedErrorCode: 411), device: "TV"), format, "a manifest it cannot read")
        XCTAssertEqual(AppModel.explain(.loadFailed(reason: nil, detailedErrorCode: 316), device: "TV"), format, "an HLS segment it cannot parse")
        XCTAssertEqual(AppModel.explain(.loadFailed(reason: nil, detailedErrorCode: 600), device: "TV"), "TV could not load the subtitles of this media.")
        XCTAssertEqual(AppModel.explain(.loadFailed(reason: nil, detailedErrorCode: 904), device: "TV"), "Other media started before this one had loaded.")
        // Without a code nothing more is known than both causes.
        XCTAssertTrue(AppModel.explain(.loadFailed(reason: nil, detailedErrorCode: nil), device: "TV").contains("or unreachable"))
        XCTAssertTrue(AppModel.explain(.loadFailed(reason: nil, detailedErrorCode: 999), device: "TV").contains("or unreachable"))
    }

    /// A link nothing answers, loaded on a receiver that fetches media as a device does:
    /// LOAD_FAILED with MEDIA_NETWORK (103), and the window says it could not be reached.
    func testADeadLinkOnAReceiverThatFetches() async throws {
        let h = try await Harness.start(fetchMedia: true)
        let model = h.model()
        await model.connect(to: try XCTUnwrap(model.addDevice(address: h.address, name: "Living Room TV")))
        await model.load(MediaInformation(contentId: "http://127.0.0.1:9/gone.mp4", contentType: "video/mp4"))
        try await waitUntil("the failure explained") { model.notice?.text.contains("could not reach this media") == true }
        XCTAssertFalse(model.notice?.text.contains("format") ?? true)
        await model.disconnect()
        await h.stop()
    }

    func testNumbersInTheUILanguagesDigits() async {
        Localization.translate = { ["0123456789": "۰۱۲۳۴۵۶۷۸۹", ".": "٫"][$0] ?? $0 }
        XCTAssertEqual(formatTime(3725), "۱:۰۲:۰۵")
        XCTAssertEqual(formatTime(205), "۳:۲۵")
        XCTAssertEqual(Localization.formatDecimal(1.5, fractionDigits: 1), "۱٫۵")
        XCTAssertEqual(Localization.formatDecimal(12, fractionDigits: 0), "۱۲")
        XCTAssertEqual(Localization.formatDecimal(0.25, fractionDigits: 2), "۰٫۲۵")
        XCTAssertEqual(Localization.parseDecimal("۱٫۵"), 1.5)
        XCTAssertEqual(Localization.parseDecimal("2.5"), 2.5, "Western digits typed in a Persian window still count")
        XCTAssertNil(Localization.parseDecimal("abc"))
        Localization.translate = saved.translate
        XCTAssertEqual(formatTime(205), "3:25")
        XCTAssertEqual(formatTime(-4), "0:00", "a device's negative time")
        XCTAssertEqual(Localization.formatDecimal(1, fractionDigits: 1), "1.0")
    }

    /// The one tr/ntr (the window's too): placeholders filled after translation, in any order.
    func testTrAndNtrFillPlaceholders() {
        XCTAssertEqual(tr("Ad {0} of {1}", 1, 3), "Ad 1 of 3")
        XCTAssertEqual(ntr("{0} device", "{0} devices", 2, 2), "2 devices")
        XCTAssertEqual(ntr("{0} device", "{0} devices", 1, 1), "1 device")
        let plural = Localization.translatePlural
        defer { Localization.translatePlural = plural }
        Localization.translatePlural = { _, _, _ in "{1}: {0}" }
        XCTAssertEqual(ntr("{0} of {1}", "{0} of {1}", 2, 2, "x"), "x: 2")
    }

    func testSubtitleStyleIsOfferedForVideoOnly() async throws {
        let h = try await Harness.start()
        let model = h.model()
        await model.connect(to: try XCTUnwrap(model.addDevice(address: h.address, name: "Demo TV")))
        let subtitles = [MediaTrack(trackId: 1, type: .text, trackContentId: "http://example.com/en.vtt", trackContentType: "text/vtt", language: "en")]
        await model.load(
            MediaInformation(
                contentId: "http://example.com/song.mp3", contentType: "audio/mpeg",
                metadata: MediaMetadata(metadataType: .musicTrack, title: "Song"), duration: 200, tracks: subtitles))
        try await waitUntil("the song loaded") { model.hasMedia }
        XCTAssertFalse(model.isEnabled(.applyStyle), "no picture to draw subtitles on")
        await model.load(
            MediaInformation(
                contentId: "http://example.com/photo.jpg", contentType: "image/jpeg",
                metadata: MediaMetadata(metadataType: .photo, title: "Photo"), tracks: subtitles))
        try await waitUntil("the photo loaded") { model.media?.contentId == "http://example.com/photo.jpg" }
        XCTAssertFalse(model.isEnabled(.applyStyle), "a photo does not move under subtitles either")
        await model.load(
            MediaInformation(
                contentId: "http://example.com/film.mp4", contentType: "video/mp4",
                metadata: MediaMetadata(metadataType: .movie, title: "Film"), duration: 200, tracks: subtitles))
        try await waitUntil("the film loaded") { model.media?.contentId == "http://example.com/film.mp4" }
        XCTAssertTrue(model.isEnabled(.applyStyle))
        await model.disconnect()
        await h.stop()
    }
}

/// A film with `film.en.srt` beside it, cast from this computer (ThisComputerTests makes both).
extension ThisComputerTests {
    func testASubtitleFileInTheUsersLanguageStartsOnAndIsNamedByIt() async throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "ffmpeg is not installed")
        let languages = Localization.preferredLanguages
        defer { Localization.preferredLanguages = languages }
        let film = try makeFilm(subtitles: true)
        let h = try await Harness.start()
        let model = try await connected(h)
        // Someone who reads Persian: the English file goes along, off.
        Localization.preferredLanguages = ["fa"]
        await model.castFiles([film])
        try await waitUntil("the file playing") { model.isPlaying }
        XCTAssertEqual(model.textTracks.count, 1)
        XCTAssertNil(model.activeTextTrackID)
        // Someone who reads English: on, in the LOAD itself.
        Localization.preferredLanguages = ["en-GB"]
        await model.castFiles([film])
        try await waitUntil("the English subtitles on") { model.activeTextTrackID == 1 }
        let track = try XCTUnwrap(model.textTracks.first)
        XCTAssertEqual(track.name, "English", "named by its language, not \"Subtitles\"")
        XCTAssertEqual(AppModel.trackLabel(track), "\u{200E}English")
        let onTheDevice = try await h.receiverMedia()
        XCTAssertEqual(onTheDevice?.activeTrackIds, [1])
        // MPRIS names the file by its own path, not the media server's address.
        XCTAssertEqual(model.localFilePath, film)
        await model.disconnect()
        await h.stop()
    }
}
