// SPDX-License-Identifier: GPL-3.0-or-later
import NIOCore
import NIOPosix

/// Runs `body` with one of CastClient's network threads as its preferred executor (SE-0417).
///
/// Without it, code that awaits a device runs on Swift's global thread pool while the reply
/// is read on a network thread: every command crosses threads twice, once to send (the
/// network thread is woken to write) and once for the answer (a pool thread is woken to run
/// the code that waited). With it, `body`, its child tasks and the sessions it works with run
/// on the thread that also owns their connections (a `CastSession` made there takes the
/// current network thread as its executor), so a command is written and its answer resumes
/// the waiting code without waking another thread.
///
/// For command-line tools, benchmarks and other code that does no blocking work in `body`:
/// while it runs, that thread reads no network traffic. Call it from nonisolated code (or pass
/// a `@Sendable` closure): code isolated to an actor, such as the window's `@MainActor` code,
/// runs on that actor whatever the preference. Detached and unstructured tasks keep running
/// on the global pool.
public func withNetworkThreadExecution<T, Failure: Error>(
    _ body: () async throws(Failure) -> T
) async throws(Failure) -> T {
    let executor = EventLoopTaskExecutor(MultiThreadedEventLoopGroup.singleton.next())
    return try await withTaskExecutorPreference(executor, operation: body)
}

/// A task executor that runs each job on one NIO event loop, in the order they come.
final class EventLoopTaskExecutor: TaskExecutor {
    let loop: any EventLoop

    init(_ loop: any EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        loop.execute { job.runSynchronously(on: executor) }
    }
}

/// Whether the caller runs on one of NIO's event-loop threads (tests check where code ran).
func runsOnNetworkThread() -> Bool { MultiThreadedEventLoopGroup.currentEventLoop != nil }
