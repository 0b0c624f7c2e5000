// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// `castctl cast --resume / --start-over` (issue 36) and the switch castctl honours.
import ArgumentParser
import Foundation
import LocalMedia
import XCTest

@testable import CastCtlCommands

final class ResumeArgumentsTests: XCTestCase {
    func cast(_ args: [String]) throws -> CastCommand {
        try XCTUnwrap(try CastCtl.parseForExecution(["cast"] + args + ["--device", "127.0.0.1:8009"]) as? CastCommand)
    }

    func testResumeIsTheDefaultAndStartOverSaysOtherwise() throws {
        let plain = try cast(["https://example.com/a.mp4"])
        XCTAssertFalse(plain.resume)
        XCTAssertFalse(plain.startOver)
        XCTAssertTrue(try cast(["https://example.com/a.mp4", "--resume"]).resume)
        XCTAssertTrue(try cast(["https://example.com/a.mp4", "--start-over"]).startOver)
        XCTAssertTrue(try cast(["https://example.com/a.mp4", "https://example.com/b.mp4", "--start-over"]).startOver, "a queue too")
        // --start wins over both (it is no usage error to give them together).
        let both = try cast(["https://example.com/a.mp4", "--resume", "--start", "12"])
        XCTAssertEqual(both.start, 12)
    }

    func testResumeAndStartOverTogetherIsAUsageError() {
        for args in [["https://example.com/a.mp4"], ["https://example.com/a.mp4", "https://example.com/b.mp4"]] {
            XCTAssertThrowsError(try CastCtl.parseForExecution(["cast"] + args + ["--resume", "--start-over", "--device", "127.0.0.1:8009"])) { error in
                XCTAssertEqual(CastCtl.exitStatus(for: error), 2)
                XCTAssertTrue(CastCtl.fullMessage(for: error).contains("--resume and --start-over cannot be used together"))
            }
        }
    }

    func testTheSwitch() {
        for on in ["1", "true", "yes", "on", " TRUE\n"] { XCTAssertEqual(ResumeSupport.parse(on), true, on) }
        for off in ["0", "false", "no", "off"] { XCTAssertEqual(ResumeSupport.parse(off), false, off) }
        XCTAssertNil(ResumeSupport.parse("maybe"))
        // The variable wins over GSettings; without either, on.
        XCTAssertFalse(ResumeSupport.isOn(environment: ["CASTDECK_REMEMBER_POSITIONS": "0", "PATH": "/usr/bin:/bin"]))
        XCTAssertTrue(ResumeSupport.isOn(environment: ["CASTDECK_REMEMBER_POSITIONS": "1", "PATH": "/usr/bin:/bin"]))
        XCTAssertTrue(
            ResumeSupport.isOn(environment: ["PATH": "/nonexistent", "GSETTINGS_SCHEMA_DIR": "/nonexistent"]),
            "no gsettings to ask: the key's default")
    }

    func testTheResumingLine() {
        XCTAssertEqual(ResumeSupport.resumingLine(ResumePoint(position: 2530.4)), "Resuming at 42:10 (--start-over to begin at the start).\n")
        XCTAssertEqual(ResumeSupport.resumingLine(ResumePoint(position: 70, item: 2)), "Resuming at item 3, 1:10 (--start-over to begin at the start).\n")
        XCTAssertEqual(ResumeSupport.resumingLine(ResumePoint(position: 3725)), "Resuming at 1:02:05 (--start-over to begin at the start).\n")
    }
}
