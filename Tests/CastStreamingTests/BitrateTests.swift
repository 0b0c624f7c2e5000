// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import XCTest

@testable import CastStreaming

final class BitrateTests: XCTestCase {
    func testLossLowersTheRateAndACleanStretchRaisesItWithinBounds() {
        var c = BitrateController(start: 3_000_000, minimum: 1_000_000, maximum: 3_000_000, now: 0)
        XCTAssertNil(c.report(fractionLost: 40, now: 1), "too soon after the start")
        XCTAssertEqual(c.report(fractionLost: 40, now: 2), 2_400_000)
        XCTAssertNil(c.report(fractionLost: 40, now: 3), "at most every 2 seconds")
        XCTAssertEqual(c.report(fractionLost: 40, now: 4), 1_920_000)
        XCTAssertEqual(c.report(fractionLost: 40, now: 6), 1_536_000)
        XCTAssertEqual(c.report(fractionLost: 40, now: 8), 1_228_800)
        XCTAssertEqual(c.report(fractionLost: 40, now: 10), 1_000_000, "not below the minimum")
        XCTAssertNil(c.report(fractionLost: 40, now: 12), "already at the minimum")
        XCTAssertNil(c.report(fractionLost: 5, now: 13), "a little loss changes nothing")
        for i in 0..<9 { XCTAssertNil(c.report(fractionLost: 0, now: 20 + Double(i) * 0.1), "fewer than ten clean reports") }
        XCTAssertEqual(c.report(fractionLost: 0, now: 21), 1_100_000)
        for i in 0..<10 { XCTAssertNil(c.report(fractionLost: 0, now: 22 + Double(i) * 0.1), "at most every 5 seconds up") }
        var top = BitrateController(start: 2_950_000, minimum: 1_000_000, maximum: 3_000_000, now: 0)
        for i in 0..<20 { XCTAssertNil(top.report(fractionLost: 0, now: 10 + Double(i)), "less than 5 % below the ceiling") }
    }
}
