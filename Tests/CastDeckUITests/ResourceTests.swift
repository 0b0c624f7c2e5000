// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastDeckResources
import CastDeckUI
import Foundation
import GtkInterop
import XCTest

/// The compiled-in GResource: every .ui file loads, every action a .ui file binds exists in
/// the action table, and the committed generated C source matches the files it came from.
final class ResourceTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let prefix = CastDeckApplication.resourcePath
    static let uiFiles =
        [
            "main-window", "device-list", "device-row", "add-device-dialog", "mini-controller",
            "expanded-controller", "tracks-popover", "style-editor", "mini-player", "preferences-window", "move-dialog",
        ].map { "\(prefix)/ui/\($0).ui" }
        + ["\(prefix)/ui/shortcuts.ui"]

    override class func setUp() {
        castdeck_register_resource()
    }

    func testEveryResourceIsCompiledIn() {
        MainActor.assumeIsolated {
            for path in Self.uiFiles + [
                "\(Self.prefix)/style.css",
                "\(Self.prefix)/icons/48x48/apps/io.github.castdeck.CastDeck.png",
                "\(Self.prefix)/icons/128x128/apps/io.github.castdeck.CastDeck.png",
                "\(Self.prefix)/icons/128x128@2/apps/io.github.castdeck.CastDeck.png",
                "\(Self.prefix)/images/empty-devices.symbolic.png",
                "\(Self.prefix)/images/empty-devices@2.symbolic.png",
            ] {
                XCTAssertTrue(Gtk.resourceExists(path), path)
            }
            XCTAssertFalse(Gtk.resourceExists("\(Self.prefix)/ui/no-such.ui"))
        }
    }

    func testEveryBoundActionIsInTheActionTable() throws {
        try MainActor.assumeIsolated {
            let names = Set(AppAction.Name.allCases.map { "win.\($0.rawValue)" })
                .union([
                    "win.show-help-overlay", "app.about", "app.quit", "app.mini-player", "app.full-controller",
                    "window.close",
                ])
            var bound = 0
            for path in Self.uiFiles {
                let text = try XCTUnwrap(Gtk.resourceText(path), path)
                let pattern = try NSRegularExpression(pattern: #"name="action(?:-name)?">([a-z.-]+)<"#)
                for m in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    let name = String(text[Range(m.range(at: 1), in: text)!])
                    XCTAssertTrue(names.contains(name), "\(path) binds \(name), which is not in the action table")
                    bound += 1
                }
            }
            XCTAssertGreaterThan(bound, 10)
        }
    }

    func testEveryDefinitionLoads() throws {
        try XCTSkipUnless(MainActor.assumeIsolated { Gtk.initialize() }, "no display")
        try MainActor.assumeIsolated {
            for path in Self.uiFiles { _ = try Builder(resource: path) }
            XCTAssertThrowsError(try Builder(resource: "\(Self.prefix)/ui/no-such.ui"))
        }
    }

    func testGeneratedSourceIsUpToDate() throws {
        let script = Self.root.appendingPathComponent("scripts/gen-resources.sh")
        let p = Process()
        p.executableURL = script
        p.arguments = ["--check"]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "run scripts/gen-resources.sh after editing a .ui file, the CSS or an icon")
    }
}
