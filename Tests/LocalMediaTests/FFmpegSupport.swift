// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation
import XCTest

/// Makes a test file with Debian's ffmpeg (`-v error -nostdin -y` + `args`); fails the test when ffmpeg does.
func makeWithFFmpeg(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
    p.arguments = ["-v", "error", "-nostdin", "-y"] + args
    try p.run()
    p.waitUntilExit()
    XCTAssertEqual(p.terminationStatus, 0, "ffmpeg \(args)", file: file, line: line)
}
