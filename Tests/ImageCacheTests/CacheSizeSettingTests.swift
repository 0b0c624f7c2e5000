// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation
import ImageCache
import XCTest

/// The cache's default disk bound is the GSettings key's default: the app reads the key, a
/// library user gets the same bound without it.
final class CacheSizeSettingTests: XCTestCase {
    func testTheConfigurationDefaultIsTheSchemaDefault() throws {
        let schema = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("data/io.github.castdeck.CastDeck.gschema.xml")
        let xml = try String(contentsOf: schema, encoding: .utf8)
        let key = try XCTUnwrap(xml.range(of: "<key name=\"image-cache-size-mb\""), "the key is declared")
        let rest = xml[key.upperBound...]
        let open = try XCTUnwrap(rest.range(of: "<default>")), close = try XCTUnwrap(rest.range(of: "</default>"))
        let megabytes = try XCTUnwrap(Int(rest[open.upperBound..<close.lowerBound]))
        XCTAssertEqual(ImageCacheConfiguration().maxDiskBytes, megabytes * 1_000_000)
    }
}
