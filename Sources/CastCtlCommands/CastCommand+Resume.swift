// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import ArgumentParser
import CastClient
import CastProtocol
import LocalMedia

/// `castctl cast … [--resume | --start-over]`: casting again what stopped part-way goes on
/// from there (issue 36), saying so in one line (on standard error with `--json`, so that
/// standard output stays JSON). `--start SECONDS` wins over both.
///
/// What is remembered, and by whom (LocalMedia's PlaybackMemory, shared with the window):
/// - a file: by the `castctl cast FILE` that serves it, while it serves it (ResumeTracker:
///   every 15 s while it plays, on pause, when it stops or is replaced, on Ctrl-C);
/// - a folder or playlist of files: likewise, the item and the time in it;
/// - a link: by `castctl stop` and `castctl pause` (a `castctl cast URL` returns at once and
///   sees nothing after), and by the window for links it cast; a queue of links only as its
///   links, one by one.
extension CastCommand {
    func validateResume() throws {
        if resume && startOver { throw ValidationError("--resume and --start-over cannot be used together: choose one.") }
    }

    /// Where a cast of `key` starts when remembered (nil: at the start, or at `--start`): not
    /// with `--start` or `--start-over`, nor when remembering is off.
    func remembered(_ key: @autoclosure () -> PlaybackKey?) -> ResumePoint? {
        guard start == nil, !startOver, let memory = ResumeSupport.memory(), let key = key(),
            let point = memory.position(for: key)
        else { return nil }
        let line = ResumeSupport.resumingLine(point)
        if options.json { Console.err(line) } else { Console.out(line) }
        return point
    }

    /// `--start`, else the remembered position of `key`, else nil (the start).
    func startTime(for key: @autoclosure () -> PlaybackKey?) -> Double? {
        start ?? remembered(key())?.position
    }

    /// Starts following the loaded media for PlaybackMemory (`stop()` it when the cast ends);
    /// nil when remembering is off.
    static func recordPositions(of key: PlaybackKey?, session: CastSession, mediaSessionId: Int?, isQueue: Bool = false) -> PositionRecorder? {
        guard let key, let mediaSessionId, let memory = ResumeSupport.memory() else { return nil }
        let recorder = PositionRecorder(memory: memory, key: key, session: session, mediaSessionId: mediaSessionId, isQueue: isQueue)
        recorder.start()
        return recorder
    }
}
