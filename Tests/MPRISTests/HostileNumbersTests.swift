import MPRIS
import XCTest

// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
@testable import AppModel

/// Times and counts from a device are shown and published without trusting them to be finite,
/// positive or to fit an integer (issue 17: a hostile MEDIA_STATUS used to trap here).
final class HostileNumbersTests: XCTestCase {
    func testMPRISMicrosecondsOfAbsurdTimes() {
        XCTAssertEqual(MPRIS.microseconds(1e308), 9_000_000_000_000_000_000)
        XCTAssertEqual(MPRIS.microseconds(-5), 0)
        XCTAssertEqual(MPRIS.microseconds(.nan), 0)
        XCTAssertEqual(MPRIS.microseconds(.infinity), 0)
        XCTAssertEqual(MPRIS.microseconds(1.5), 1_500_000)
    }

    func testTimesOfAbsurdLength() {
        XCTAssertEqual(formatTime(-50), "0:00")
        XCTAssertEqual(formatTime(1e308), "596523:14:07")  // Int32.max seconds
        XCTAssertEqual(formatTime(-3), "0:00")
        XCTAssertEqual(formatTime(.nan), "0:00")
        XCTAssertEqual(formatTime(65), "1:05")
    }
}

/// Text from the device is cut for display (the window lays out what it shows on the main loop).
final class ShortenedTextTests: XCTestCase {
    func testShortTextIsKept() {
        XCTAssertEqual(shortened("Big Buck Bunny"), "Big Buck Bunny")
        let exactly = String(repeating: "é", count: 500)
        XCTAssertEqual(shortened(exactly), exactly)
    }

    func testLongTextIsCutByCharacter() {
        let flags = String(repeating: "🏳️‍🌈", count: 600)
        let cut = shortened(flags)
        XCTAssertEqual(cut.count, 501)
        XCTAssertTrue(cut.hasSuffix("…"))
        XCTAssertTrue(flags.hasPrefix(String(cut.dropLast())))
    }

    func testOneHugeClusterIsCutByScalar() {
        let zalgo = "e" + String(repeating: "\u{0301}", count: 60_000)
        let cut = shortened(zalgo)
        XCTAssertEqual(cut.unicodeScalars.count, 501)
        XCTAssertTrue(cut.hasSuffix("…"))
    }
}
