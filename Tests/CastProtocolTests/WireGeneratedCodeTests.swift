// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import Foundation
import Testing

/// The wire models' readers and writers are generated from their declarations
/// (scripts/gen-wire.py, Models/Generated). These tests fail when the committed output is stale,
/// and show on a copy of the target that a new member is one line in its declaration.
@Suite struct WireGeneratedCode {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs scripts/gen-wire.py with `arguments`; its exit status and standard error.
    func generator(_ arguments: [String]) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", Self.root.appendingPathComponent("scripts/gen-wire.py").path] + arguments
        let err = Pipe()
        p.standardError = err
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, text)
    }

    @Test func committedCodeIsUpToDate() throws {
        let (status, errors) = try generator(["--check"])
        #expect(status == 0, "run scripts/gen-wire.py after changing a wire model's declaration: \(errors)")
    }

    /// Adding a member to Volume's declaration, and nothing else, gives it a reader case and
    /// a writer line in key order.
    @Test func aMemberAddedToTheDeclarationIsReadAndWritten() throws {
        let fm = FileManager.default
        let copy = fm.temporaryDirectory.appendingPathComponent("castdeck-gen-wire-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: copy) }
        try fm.createDirectory(at: copy.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        try fm.copyItem(at: Self.root.appendingPathComponent("Sources/CastProtocol"), to: copy.appendingPathComponent("Sources/CastProtocol"))
        let declaration = copy.appendingPathComponent("Sources/CastProtocol/Models/Media.swift")
        let text = try String(contentsOf: declaration, encoding: .utf8)
        let anchor = "    public var stepInterval: Double?\n"
        #expect(text.contains(anchor))
        try text.replacingOccurrences(of: anchor, with: anchor + "    public var gain: Double?\n").write(to: declaration, atomically: true, encoding: .utf8)

        #expect(try generator(["--root", copy.path, "--check"]).0 != 0, "the copy is stale until regenerated")
        #expect(try generator(["--root", copy.path]).0 == 0)
        let generated = try String(contentsOf: copy.appendingPathComponent("Sources/CastProtocol/Models/Generated/Media.generated.swift"), encoding: .utf8)
        #expect(generated.contains(#"case "gain": gain = try r.optionalDouble()"#))
        #expect(generated.contains("o.member(\"controlType\", controlType)\n        try o.member(\"gain\", gain)\n        try o.member(\"level\", level)"))
    }
}
