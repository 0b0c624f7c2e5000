// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation

extension CaptureSource {
    /// The source's size now, from `xwininfo` (the root window for the screen). The sender
    /// asks again every second to notice a resized window or a changed screen mode.
    public func currentSize() throws(ScreenCaptureError) -> PixelSize {
        let display: String
        var args: [String]
        switch self {
        case .x11Screen(let d):
            display = d
            args = ["-display", d, "-root"]
        case .x11Window(let d, let id):
            display = d
            args = ["-display", d, "-id", "0x" + String(id, radix: 16)]
        case .portal(let p):
            // The size the portal said; PipeWire scales a later change to it (PipeWireFeed).
            return p.size
        }
        guard let result = ToolRun.run(["xwininfo"] + args) else {
            throw .sourceUnavailable("xwininfo could not be started; install x11-utils to mirror an X11 screen")
        }
        let (text, said) = (result.output, result.errors)
        guard result.status == 0, let size = Self.parseXwininfo(text) else {
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
