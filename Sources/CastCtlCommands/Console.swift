// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
#if canImport(Glibc)
import Glibc
#endif

/// castctl's writes to standard output and standard error.
///
/// `FileHandle.write(_:)` traps when a write fails, and one fails whenever the reader of a pipe
/// has gone: SwiftNIO ignores SIGPIPE, so `castctl watch | head -3` used to end in a crash
/// report instead of quietly. Here a gone reader of standard output ends castctl with status
/// 141 (128 + SIGPIPE, what a shell shows for a tool SIGPIPE ended) and nothing printed, and a
/// failed write to standard error is dropped, since there is nowhere left to report it.
enum Console {
    /// The exit status when the reader of standard output has gone.
    static let readerGoneStatus: Int32 = 128 + SIGPIPE

    static func out(_ text: String) {
        fflush(nil)  // first whatever print() buffered, to keep the order
        if !write(text, to: STDOUT_FILENO) { exit(readerGoneStatus) }
    }

    static func err(_ text: String) {
        _ = write(text, to: STDERR_FILENO)
    }

    /// Writes all of `text`; false if the descriptor refused it (EPIPE or another error).
    private static func write(_ text: String, to fd: Int32) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n >= 0 {
                    offset += n
                } else if errno != EINTR {
                    return false
                }
            }
            return true
        }
    }
}
