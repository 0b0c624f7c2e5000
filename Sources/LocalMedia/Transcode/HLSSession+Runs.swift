// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// The converter runs of an HLSSession: starting one at a segment, following what it makes,
// chaining the run after its quick segments, keeping the folder within its bound. The type's
// overview is in HLSSession.swift.

import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension HLSSession {
    // MARK: - Runs

    /// Whether a run converts video with x264 (then it starts with quick segments).
    var convertsWithX264: Bool { videoEncoder == .x264 && renditions.contains { $0.isVideo && !$0.copy } }

    /// Kills the live run (if any) and starts one at segment `index`; nil when it started.
    /// A run that converts video first makes ``quickSegments`` segments quickly, then the
    /// run that goes on from there is started as it ends (`follow`).
    func startRun(at index: Int, quick: Bool = true, initial: Bool = false) -> LocalMediaError? {
        defer { lock.withLock { starting = false } }
        let until: Int? = quick && convertsWithX264 && index + Self.quickSegments < boundaries.count ? index + Self.quickSegments : nil
        let (old, id): (Run?, Int) = lock.withLock {
            runCounter += 1
            let o = run
            run = nil
            return (o, runCounter)
        }
        if let old {
            old.killedByUs = true
            old.process.kill()
        }
        let args = arguments(run: id, from: index, until: until, initial: initial)
        let process: ConverterProcess
        do {
            process = try ConverterProcess.start(ffmpeg, args, logPath: (directory as NSString).appendingPathComponent("r\(id).log"))
        } catch {
            let e = LocalMediaError.converterFailed(file: fileName, reason: error.reason)
            fail(e.description)
            return e
        }
        let newRun = Run(id: id, start: index, process: process, until: until, initial: initial)
        let stale: Bool = lock.withLock {
            if ended { return true }
            run = newRun
            return false
        }
        if stale {
            process.kill()
            return .converterFailed(file: fileName, reason: "the cast ended")
        }
        Task.detached { [self] in await self.follow(newRun) }
        return nil
    }

    /// Collects the segments a run finishes (from its segment lists) until it ends.
    func follow(_ r: Run) async {
        var paused = false
        while r.process.status == nil {
            collect(r)
            let (made, wanted) = lock.withLock { (renditions.map { r.made[$0.name] ?? r.start - 1 }.min() ?? 0, lastRequested) }
            if !paused, made > wanted + Self.ahead {
                paused = r.process.signal(SIGSTOP)
            } else if paused, made <= wanted + Self.ahead {
                paused = !r.process.signal(SIGCONT)
            }
            // Often until the run's first segment is out (someone is waiting for it), then calmly.
            try? await Task.sleep(for: .milliseconds(r.made.isEmpty ? 10 : 100))
        }
        collect(r)
        let status = r.process.status ?? 0
        if status == 0, !r.killedByUs, let next = r.until {
            // The quick segments are made: the run that goes on starts at once, unless a
            // request is starting one of its own.
            let go: Bool = lock.withLock {
                guard !ended, !starting, run === r else { return false }
                starting = true
                return true
            }
            if go { _ = startRun(at: next, quick: false, initial: r.initial) }
        }
        if status != 0, !r.killedByUs, lock.withLock({ !ended }) {
            fail("ffmpeg stopped (\(status < 0 ? "killed by signal \(-status)" : "exit status \(status)")): \(r.process.lastMessage)")
        }
        try? FileManager.default.removeItem(atPath: r.process.logPath)
        for rend in renditions { try? FileManager.default.removeItem(atPath: listPath(r.id, rend.name)) }
    }

    func listPath(_ run: Int, _ rendition: String) -> String {
        (directory as NSString).appendingPathComponent("r\(run)_\(rendition).csv")
    }

    func collect(_ r: Run) {
        var changed = false
        for rend in renditions {
            guard let text = try? String(contentsOfFile: listPath(r.id, rend.name), encoding: .utf8) else { continue }
            for line in text.split(whereSeparator: \.isNewline) {
                guard let file = line.split(separator: ",").first, let under = file.lastIndex(of: "_"),
                    let i = Int(file[file.index(after: under)...].dropLast(3))
                else { continue }
                if lock.withLock({ done[rend.name]?.contains(i) == true }) {
                    if (r.made[rend.name] ?? -1) < i { r.made[rend.name] = i }
                    continue
                }
                let temp = (directory as NSString).appendingPathComponent(String(file))
                let final = (directory as NSString).appendingPathComponent(Self.segmentName(rend.name, i))
                if rename(temp, final) == 0 {
                    lock.withLock {
                        _ = done[rend.name]?.insert(i)
                        if (r.made[rend.name] ?? -1) < i { r.made[rend.name] = i }
                    }
                    changed = true
                }
            }
        }
        if changed { enforceSizeLimit() }
    }

    /// Removes made segments, farthest behind the playhead first, while the folder is too big.
    func enforceSizeLimit() {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else { return }
        var total: Int64 = 0
        var segments: [(name: String, rendition: String, index: Int, size: Int64)] = []
        for n in names {
            let p = (directory as NSString).appendingPathComponent(n)
            let size = (try? fm.attributesOfItem(atPath: p)[.size] as? Int64) ?? 0
            total += size ?? 0
            if n.hasSuffix(".ts"), !n.hasPrefix("r"), let u = n.lastIndex(of: "_"), let i = Int(n[n.index(after: u)...].dropLast(3)) {
                segments.append((n, String(n[..<u]), i, size ?? 0))
            }
        }
        guard total > sizeLimit else { return }
        let here = lock.withLock { lastRequested }
        // Behind the playhead first (oldest first), then farthest ahead.
        segments.sort { a, b in
            let ka = a.index < here - 1 ? (0, a.index) : (1, -a.index)
            let kb = b.index < here - 1 ? (0, b.index) : (1, -b.index)
            return ka < kb
        }
        for s in segments where total > sizeLimit {
            if s.index >= here - 1 && s.index <= here + Self.lookahead { continue }
            lock.withLock { _ = done[s.rendition]?.remove(s.index) }
            try? fm.removeItem(atPath: (directory as NSString).appendingPathComponent(s.name))
            total -= s.size
        }
    }

    func fail(_ sentence: String) {
        let waiters: [CheckedContinuation<String?, Never>] = lock.withLock {
            if failure == nil { failure = sentence }
            defer { failureWaiters = [:] }
            return Array(failureWaiters.values)
        }
        for w in waiters { w.resume(returning: sentence) }
    }
}
