// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One ffmpeg run that must never outlive this process.
///
/// Three guards: every run is killed when its cast ends (`kill()`), every live run is killed
/// when the process exits normally (`killAll()`, from an `atexit` hook and castctl's signal
/// handler), and each run is started through util-linux's `setpriv --pdeathsig KILL`, so the
/// kernel kills it when we die any other way (SIGKILL, a crash). The parent-death signal fires
/// when the *thread* that started the child ends, so every run is started from one thread
/// that lives as long as the process.
final class ConverterProcess: @unchecked Sendable {
    let pid: pid_t
    private let process: Process
    private let lock = NSLock()
    private var exitStatus: Int32?
    private var waiters: [CheckedContinuation<Int32, Never>] = []
    /// Where ffmpeg's messages go (the last line explains a failure).
    let logPath: String

    private init(process: Process, logPath: String) {
        self.process = process
        self.pid = process.processIdentifier
        self.logPath = logPath
    }

    /// Starts `tool arguments…` with stdout discarded (or into `output`, the write end of a
    /// pipe a live stream reads) and stderr into `logPath`.
    static func start(
        _ tool: String, _ arguments: [String], logPath: String, input: FileHandle? = nil, output: FileHandle? = nil
    ) throws(ToolError)
        -> ConverterProcess
    {
        guard let toolPath = tool.contains("/") ? tool : ToolRunner.findInPath(tool) else {
            throw ToolError(reason: "\(tool) is not installed (Debian: apt install ffmpeg)")
        }
        let outcome: Result<ConverterProcess, ToolError> = Spawner.shared.perform {
            let p = Process()
            if let setpriv = ToolRunner.findInPath("setpriv") {
                p.executableURL = URL(fileURLWithPath: setpriv)
                p.arguments = ["--pdeathsig", "KILL", "--", toolPath] + arguments
            } else {
                p.executableURL = URL(fileURLWithPath: toolPath)
                p.arguments = arguments
            }
            FileManager.default.createFile(atPath: logPath, contents: nil)
            p.standardInput = input ?? FileHandle.nullDevice
            p.standardOutput = output ?? FileHandle.nullDevice
            p.standardError = FileHandle(forWritingAtPath: logPath) ?? FileHandle.nullDevice
            do {
                try p.run()
            } catch {
                return .failure(ToolError(reason: "\(tool) could not start: \(error.localizedDescription)"))
            }
            let c = ConverterProcess(process: p, logPath: logPath)
            Live.shared.add(c)
            p.terminationHandler = { _ in c.finished() }
            if !p.isRunning { c.finished() }
            return .success(c)
        }
        return try outcome.get()
    }

    private func finished() {
        let status = process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus
        let toWake: [CheckedContinuation<Int32, Never>] = lock.withLock {
            guard exitStatus == nil else { return [] }
            exitStatus = status
            defer { waiters = [] }
            return waiters
        }
        Live.shared.remove(self)
        for w in toWake { w.resume(returning: status) }
    }

    /// The exit status once it ended (negative: killed by that signal), else nil.
    var status: Int32? { lock.withLock { exitStatus } }

    /// Waits for the end; returns the exit status (negative for a signal).
    func wait() async -> Int32 {
        await withCheckedContinuation { c in
            let done: Int32? = lock.withLock {
                if let s = exitStatus { return s }
                waiters.append(c)
                return nil
            }
            if let done { c.resume(returning: done) }
        }
    }

    /// SIGKILL: what was half written is thrown away by the caller anyway.
    func kill() {
        guard status == nil else { return }
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// Sends `signal` while it runs; true when sent.
    func signal(_ signal: Int32) -> Bool {
        guard status == nil else { return false }
        return Glibc.kill(pid, signal) == 0
    }

    /// The last line ffmpeg wrote, for an error sentence.
    var lastMessage: String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(whereSeparator: \.isNewline).last.map(String.init) ?? "no message"
    }

    /// Kills every live converter (process exit).
    static func killAll() { Live.shared.killAll() }

    /// How many converters run (tests, benchmarks).
    static var liveCount: Int { Live.shared.count }

    private final class Live: @unchecked Sendable {
        static let shared: Live = {
            atexit { ConverterProcess.Live.shared.killAll() }
            return Live()
        }()
        private let lock = NSLock()
        private var all: [ObjectIdentifier: ConverterProcess] = [:]
        func add(_ c: ConverterProcess) { lock.withLock { all[ObjectIdentifier(c)] = c } }
        func remove(_ c: ConverterProcess) { _ = lock.withLock { all.removeValue(forKey: ObjectIdentifier(c)) } }
        func killAll() { for c in lock.withLock({ Array(all.values) }) { c.kill() } }
        var count: Int { lock.withLock { all.count } }
    }
}

/// The one thread that starts converters (see ``ConverterProcess``); it never ends.
private final class Spawner: @unchecked Sendable {
    static let shared = Spawner()
    private let lock = NSCondition()
    private var jobs: [() -> Void] = []
    private var thread: Thread?

    private init() {
        let t = Thread { [unowned self] in self.loop() }
        t.name = "castdeck-converter-spawner"
        t.start()
        thread = t
    }

    private func loop() {
        while true {
            lock.lock()
            while jobs.isEmpty { lock.wait() }
            let job = jobs.removeFirst()
            lock.unlock()
            job()
        }
    }

    /// Runs `body` on the spawner thread and waits for its result.
    func perform<T>(_ body: @escaping () -> T) -> T {
        let box = LockedBox<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        lock.lock()
        jobs.append {
            box.set(body())
            done.signal()
        }
        lock.signal()
        lock.unlock()
        done.wait()
        return box.get()!
    }
}
