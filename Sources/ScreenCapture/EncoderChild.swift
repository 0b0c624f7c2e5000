// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation
import Synchronization

/// The ffmpeg child of an encoder (`VideoEncoder`, `AudioEncoder`), one at a time: `replace`
/// ends the running one and starts another, `stop` ends it for good. Each child's output is
/// read to its end on a thread of its own; what it hands out counts only while it is the
/// current child, and a child that ends on its own (not replaced or stopped) is reported with
/// what ended it.
final class EncoderChild: Sendable {
    private struct State {
        var process: Process?
        /// What feeds the child's standard input (a Wayland screen), ended with it.
        var feed: PipeWireFeed?
        var generation = 0
        var stopped = false
    }
    private let state = Mutex(State())
    private let ffmpeg: String
    private let purpose: String
    private let threadName: String

    /// `purpose` ends the sentence said when ffmpeg cannot be started ("to mirror the screen").
    init(ffmpeg: String, purpose: String, threadName: String) {
        self.ffmpeg = ffmpeg
        self.purpose = purpose
        self.threadName = threadName
    }

    /// Ends the running child and starts `ffmpeg arguments`. `reader` makes, on the new child's
    /// thread, what takes each piece of its output (throwing a description of output that is
    /// not what it should be, which ends the child); it is told whether the child is still the
    /// current one. `ended` hears what ended a current child: that description, ffmpeg's last
    /// line on stderr, or its exit status.
    func replace(
        arguments: [String], input feed: PipeWireFeed? = nil, ended: @escaping @Sendable (String) -> Void,
        reader: @escaping @Sendable (_ isCurrent: @escaping @Sendable () -> Bool) -> (Data) throws -> Void
    ) throws(ScreenCaptureError) {
        let (old, oldFeed, generation) = state.withLock { s -> (Process?, PipeWireFeed?, Int) in
            s.generation += 1
            defer {
                s.process = nil
                s.feed = nil
            }
            return (s.process, s.feed, s.generation)
        }
        if let old, old.isRunning { old.terminate() }
        oldFeed?.stop()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ffmpeg.contains("/") ? ffmpeg : "/usr/bin/env")
        p.arguments = (ffmpeg.contains("/") ? [] : [ffmpeg]) + arguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = feed?.output ?? FileHandle.nullDevice
        do {
            try p.run()
        } catch {
            feed?.stop()
            throw .encoderFailed("ffmpeg could not be started (\(error.localizedDescription)); install ffmpeg \(purpose)")
        }
        let current = state.withLock { s -> Bool in
            guard !s.stopped, s.generation == generation else { return false }
            s.process = p
            s.feed = feed
            return true
        }
        guard current else {
            p.terminate()
            feed?.stop()
            return
        }
        let isCurrent: @Sendable () -> Bool = { [self] in state.withLock { !$0.stopped && $0.generation == generation } }
        let thread = Thread {
            let said = Self.drain(p, out: out.fileHandleForReading, err: err.fileHandleForReading, isCurrent: isCurrent, take: reader(isCurrent))
            if let said { ended(said) }
        }
        thread.name = threadName
        thread.start()
    }

    /// Ends the running child, and refuses to start another.
    func stop() {
        let (p, feed) = state.withLock { s -> (Process?, PipeWireFeed?) in
            s.stopped = true
            s.generation += 1
            defer {
                s.process = nil
                s.feed = nil
            }
            return (s.process, s.feed)
        }
        if let p, p.isRunning { p.terminate() }
        feed?.stop()
    }

    /// Hands every piece of `out` to `take` until it ends or `take` throws; then what ended the
    /// child, or nil when it is no longer the current one.
    private static func drain(_ process: Process, out: FileHandle, err: FileHandle, isCurrent: () -> Bool, take: (Data) throws -> Void) -> String? {
        var failure: String?
        while true {
            let chunk = out.availableData
            if chunk.isEmpty { break }
            do {
                try take(chunk)
            } catch {
                failure = "\(error)"
                process.terminate()
                break
            }
        }
        // Not waitUntilExit, which can wait forever on Linux: its output has ended, so it is ending.
        for _ in 0..<200 where process.isRunning { usleep(10_000) }
        guard isCurrent() else { return nil }
        let said = String(decoding: err.readDataToEndOfFile(), as: UTF8.self).split(whereSeparator: \.isNewline).last.map(String.init)
        let status = process.isRunning ? "ffmpeg stopped writing" : "ffmpeg ended with status \(process.terminationStatus)"
        return failure ?? said ?? status
    }
}
