// SPDX-License-Identifier: GPL-3.0-or-later
// StreamTransfer between two simulated receivers, checked by reading each receiver's own state.
import CastClient
import CastProtocol
import Foundation
import Testing

@Suite("StreamTransfer between two simulated receivers", .serialized, .timeLimit(.minutes(2)))
struct StreamTransferTests {
    static func items() -> [QueueItem] {
        (1...3).map { n in
            var media = sampleMedia
            media.contentId = "https://example.com/\(n).mp4"
            media.metadata = MediaMetadata(metadataType: .movie, title: "Part \(n)")
            return QueueItem(media: media, autoplay: true)
        }
    }

    /// A source playing the queue at item 2 with French subtitles in yellow at 2×.
    func playing(on sim: Simulator) async throws -> CastSession {
        let source = CastSession(device: sim.address, configuration: testConfiguration())
        try await source.start()
        try await source.media.queueLoad(Self.items(), startIndex: 1, repeatMode: .all, startTime: 30)
        try await source.media.setActiveTrackIDs([2])
        try await source.media.setTextTrackStyle(TextTrackStyle(foregroundColor: "#FFFF00FF", fontScale: 1.5))
        try await source.media.setPlaybackRate(2)
        return source
    }

    @Test func theQueueTracksStyleAndRateArriveAndTheSourceStops() async throws {
        let a = try await Simulator.start(), b = try await Simulator.start()
        let source = try await playing(on: a)
        let target = CastSession(device: b.address, configuration: testConfiguration())
        let before = try #require(try await a.media()).currentTime ?? 0
        let steps = StepLog()
        let report = try await StreamTransfer.move(from: source, to: target, progress: { step in steps.add(step) })
        #expect(steps.all == [.readingSource, .startingTarget, .loading, .waitingForTarget, .stoppingSource])
        #expect(report.snapshot.isQueue && report.snapshot.items.count == 3 && report.snapshot.currentIndex == 1)
        #expect(report.sourceStopFailure == nil)
        #expect((report.startedAt ?? 0) >= before)

        let moved = try #require(try await b.media())
        #expect(moved.playerState == .playing)
        #expect(moved.playbackRate == 2)
        #expect(moved.activeTrackIds == [2])
        #expect(moved.repeatMode == .all)
        #expect(moved.effectiveMedia?.contentId == "https://example.com/2.mp4")
        #expect(moved.effectiveMedia?.textTrackStyle?.foregroundColor == "#FFFF00FF")
        #expect(moved.effectiveMedia?.textTrackStyle?.fontScale == 1.5)
        #expect((moved.currentTime ?? 0) >= before)
        let ids = try await b.queueIDs()
        #expect(ids.count == 3 && ids.firstIndex(of: moved.currentItemId ?? -1) == 1)
        #expect(try await a.media()?.playerState == .idle)
        await source.leave()
        await target.leave()
        await a.stop()
        await b.stop()
    }

    @Test func aPausedSingleItemArrivesPaused() async throws {
        let a = try await Simulator.start(), b = try await Simulator.start()
        let source = CastSession(device: a.address, configuration: testConfiguration())
        try await source.start()
        try await source.media.load(sampleMedia, startTime: 100, activeTrackIDs: [1])
        let pausedAt = try #require(try await source.media.pause()?.currentTime)
        let target = CastSession(device: b.address, configuration: testConfiguration())
        let report = try await StreamTransfer.move(from: source, to: target)
        #expect(!report.snapshot.isQueue)
        let moved = try #require(try await b.media())
        #expect(moved.playerState == .paused)
        #expect(moved.currentTime == pausedAt, "a paused source's position does not move")
        #expect(moved.activeTrackIds == [1])
        #expect(try await a.media()?.playerState == .idle)
        await source.leave()
        await target.leave()
        await a.stop()
        await b.stop()
    }

    @Test func anUnreachableTargetLeavesTheSourcePlaying() async throws {
        let a = try await Simulator.start()
        let source = try await playing(on: a)
        // A port nothing listens on: take one and let it go.
        let b = try await Simulator.start()
        let gone = b.address
        await b.stop()
        let target = CastSession(device: gone, configuration: testConfiguration(timeout: .seconds(3)))
        var failure: StreamTransferError?
        do {
            _ = try await StreamTransfer.move(from: source, to: target)
        } catch {
            failure = error
        }
        let error = try #require(failure, "the move should fail")
        if case .target(let device, _) = error {
            #expect(device == gone.description)
        } else {
            Issue.record("unexpected \(error)")
        }
        #expect(error.description.contains("keeps playing where it was"))
        #expect(try await a.media()?.playerState == .playing)
        #expect(try await a.media()?.playbackRate == 2)
        await source.leave()
        await a.stop()
    }

    @Test func nothingPlayingAndTheSameDeviceAreRefused() async throws {
        let a = try await Simulator.start()
        let source = CastSession(device: a.address, configuration: testConfiguration())
        try await source.start()
        let same = CastSession(device: a.address, configuration: testConfiguration())
        await #expect(throws: StreamTransferError.sameDevice(a.address.description)) {
            try await StreamTransfer.move(from: source, to: same)
        }
        let b = try await Simulator.start()
        let target = CastSession(device: b.address, configuration: testConfiguration())
        await #expect(throws: StreamTransferError.nothingPlaying) {
            try await StreamTransfer.move(from: source, to: target)
        }
        #expect(try await b.media() == nil)
        await source.leave()
        await a.stop()
        await b.stop()
    }
}

/// The steps a move reported, in order.
final class StepLog: @unchecked Sendable {
    private let lock = NSLock()
    private var steps: [StreamTransfer.Step] = []
    func add(_ s: StreamTransfer.Step) { lock.withLock { steps.append(s) } }
    var all: [StreamTransfer.Step] { lock.withLock { steps } }
}
