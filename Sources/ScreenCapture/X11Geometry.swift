// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation

extension CaptureSource {
    /// The source's size now, from `xwininfo` (the root window for the screen). The sender
    /// asks again every second to notice a resized window or a changed screen mode.
    public func currentSize() throws(ScreenCaptureError) -> PixelSize {
        var args = ["-display", display]
        switch self {
        case .x11Screen: args.append("-root")
        case .x11Window(_, let id): args += ["-id", "0x" + String(id, radix: 16)]
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["xwininfo"] + args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        do { try p.run() } catch { throw .sourceUnavailable("xwininfo could not be started; install x11-utils to mirror an X11 screen") }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0, let size = Self.parseXwininfo(text) else {
            if case .x11Window(_, let id) = self, said.contains("BadWindow") || said.contains("No such window") {
                throw .sourceUnavailable("There is no window 0x\(String(id, radix: 16)) on display \(display) (it may have closed).")
            }
            throw .sourceUnavailable("No X server answers on display \(display): set DISPLAY to a running X session.")
        }
        return size
    }

    /// `currentSize` as a result, for callers that only report the problem.
    public func probeSize() -> Result<PixelSize, ScreenCaptureError> {
        do { return .success(try currentSize()) } catch { return .failure(error) }
    }

    /// Width and height from `xwininfo`'s report ("  Width: 1280", "  Height: 800").
    static func parseXwininfo(_ text: String) -> PixelSize? {
        var w: Int?, h: Int?
        for line in text.split(whereSeparator: \.isNewline) {
            let t = line.trimmingCharacters(in: .whitespaces)
            if t.hasPrefix("Width:") { w = Int(t.dropFirst(6).trimmingCharacters(in: .whitespaces)) }
            if t.hasPrefix("Height:") { h = Int(t.dropFirst(7).trimmingCharacters(in: .whitespaces)) }
        }
        guard let w, let h, w > 0, h > 0 else { return nil }
        return PixelSize(width: w, height: h)
    }
}
