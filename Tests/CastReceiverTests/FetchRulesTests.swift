// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

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
}
