// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation
import XCTest

@testable import CastReceiver

/// What `--fetch-media` accepts in an HLS master playlist's CODECS: surround sound only with
/// an AV receiver on the device's HDMI (`--av-receiver`).
final class FetchRulesTests: XCTestCase {
    func testSurroundCodecsNeedAnAVReceiver() async {
        for codec in ["ac-3", "ec-3"] {
            let refused = HLSCheck.refusal(codec: codec, model: "Chromecast")
            XCTAssertTrue(refused?.contains("AV receiver") == true, refused ?? "accepted")
            XCTAssertNil(HLSCheck.refusal(codec: codec, model: "Chromecast", avReceiver: true))
        }
        XCTAssertNotNil(HLSCheck.refusal(codec: "dtsc", model: "Chromecast", avReceiver: true), "DTS is never passed through")
        XCTAssertNil(HLSCheck.refusal(codec: "mp4a.40.2", model: "Chromecast"))
    }

    /// A text track given as a `data:` URL (a chapter track that needs no server) is read in
    /// place, as a browser reads it: no request, no CORS.
    func testADataURLTrackIsReadInPlace() async throws {
        let vtt = "WEBVTT\n\n00:00.000 --> 00:10.000\nOne\n"
        guard case .success(let f) = await MediaFetcher.fetch("data:text/vtt;base64," + Data(vtt.utf8).base64EncodedString(), timeout: .seconds(1), keep: 6)
        else { return XCTFail("a base64 data: URL") }
        XCTAssertEqual(f.status, 200)
        XCTAssertEqual(f.contentType, "text/vtt")
        XCTAssertEqual(f.allowOrigin, "*")
        XCTAssertEqual(f.body, Array("WEBVTT".utf8), "only the first `keep` bytes")
        guard case .success(let plain) = await MediaFetcher.fetch("data:text/vtt,WEBVTT%0A", timeout: .seconds(1), keep: 16)
        else { return XCTFail("a percent-encoded data: URL") }
        XCTAssertEqual(plain.body, Array("WEBVTT\n".utf8))
        guard case .failure = await MediaFetcher.fetch("data:text/vtt;base64,@@@", timeout: .seconds(1), keep: 16)
        else { return XCTFail("broken base64 is refused") }
    }
}
