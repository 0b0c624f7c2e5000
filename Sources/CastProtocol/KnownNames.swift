// SPDX-License-Identifier: GPL-3.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// The member names of Cast messages that are too long for an inline String (16 bytes or
/// more), made once per process.
///
/// A name of up to 15 bytes costs the parser next to nothing (`SmallASCIIString`); a longer one
/// costs an allocation, a copy and a check when it is made and a free when the tree goes, for
/// every message: `supportedMediaCommands`, `currentBreakClipTime`, `trackContentType` and the
/// like are in every MEDIA_STATUS. The untyped tree takes these names from here instead. A name
/// not listed here is made as usual; the list only saves work, it decides nothing.
enum KnownNames {
    private struct Entry {
        let head: UInt64
        let bytes: [UInt8]
        let string: String
    }

    /// Entries by length − 16, then in no particular order.
    private static let byLength: [[Entry]] = {
        let names = [
            // media (MediaStatus, MediaInformation, tracks, style, breaks, queues)
            "supportedMediaCommands", "currentBreakClipTime", "currentBreakTime", "trackContentType",
            "windowRoundedCornerRadius", "fontGenericFamily", "hlsSegmentFormat", "liveSeekableRange",
            "playbackDuration", "creationDateTime", "relativePlaybackRate", "currentItemIndex",
            "detailedErrorCode", "enableTextTracks", "isSuggestedLanguage",
            // receiver and device
            "launchedFromCloud", "protocolVersionList", "supportedAppTypes",
        ]
        var table = [[Entry]](repeating: [], count: 16)
        for name in names {
            let bytes = Array(name.utf8)
            guard (16..<32).contains(bytes.count) else { continue }
            let head = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            table[bytes.count - 16].append(Entry(head: head, bytes: bytes, string: name))
        }
        return table
    }()

    /// The listed name of `count` bytes at `text`, or nil.
    @inline(__always)
    static func name(_ text: UnsafePointer<UInt8>, count: Int) -> String? {
        guard count >= 16, count < 32 else { return nil }
        let head = UnsafeRawPointer(text).loadUnaligned(as: UInt64.self)
        for entry in byLength[count - 16] where entry.head == head {
            if entry.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, text, count) == 0 }) { return entry.string }
        }
        return nil
    }
}
