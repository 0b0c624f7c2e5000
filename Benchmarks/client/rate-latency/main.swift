// SPDX-License-Identifier: GPL-3.0-or-later
// SET_PLAYBACK_RATE command-to-acknowledged-status latency, in-process through CastClient.
//
//     castdeck-bench-client HOST:PORT [ITERATIONS] [network-thread]
//     castdeck-bench-client status HOST:PORT
//
// Joins (or launches) the Default Media Receiver on a running simulator, loads a media item,
// then alternates the rate between 1 and 2. Each sample is the time from calling
// `setPlaybackRate` to its return, which happens once the receiver's MEDIA_STATUS with the
// request's id has been applied. Prints one JSON line with the samples' p50/p99 in ms.
// With `network-thread` the whole session runs inside `withNetworkThreadExecution`, as
// castctl's device commands do; without it, on Swift's global pool (the library's default).
//
// `status` does what `castctl status --json` does through the same CastClient calls (connect,
// device authentication, join the running app, print receiver and media status as JSON) with
// none of castctl's command line: no ArgumentParser, no receiver, discovery or media-server
// code in the binary. Benchmarks/client/run.sh times it beside castctl, so the difference
// between the two is what the command-line tool adds and the rest is CastClient's own cost.
import CastClient
import CastProtocol
import Foundation

@main
struct BenchClient {
    static func main() async {
        let args = CommandLine.arguments
        if args.count == 3, args[1] == "status", let device = try? DeviceAddress(parsing: args[2]) {
            await withNetworkThreadExecution { @Sendable in await status(device) }
            return
        }
        if args.count == 4, args[3] == "network-thread" {
            await withNetworkThreadExecution { @Sendable in await rate(args) }
        } else {
            await rate(args)
        }
    }

    static func rate(_ args: [String]) async {
        guard args.count >= 2, let device = try? DeviceAddress(parsing: args[1]) else {
            FileHandle.standardError.write(Data("usage: castdeck-bench-client HOST:PORT [ITERATIONS] | status HOST:PORT\n".utf8))
            exit(2)
        }
        let iterations = args.count >= 3 ? Int(args[2]) ?? 500 : 500
        var configuration = CastClientConfiguration()
        configuration.sessionStore = nil
        configuration.reconnect = .disabled
        let session = CastSession(device: device, configuration: configuration)
        do {
            try await session.start()
            try await session.media.load(MediaInformation(contentId: "https://example.com/bench.mp4", contentType: "video/mp4", duration: 3600))
            for _ in 0..<20 {
                try await session.media.setPlaybackRate(2)
                try await session.media.setPlaybackRate(1)
            }  // warm-up
            var samples: [Double] = []
            samples.reserveCapacity(iterations)
            let clock = ContinuousClock()
            for i in 0..<iterations {
                let rate: Double = i % 2 == 0 ? 2 : 1
                let elapsed = try await clock.measure { try await session.media.setPlaybackRate(rate) }
                guard await session.media.status?.playbackRate == rate else {
                    FileHandle.standardError.write(Data("the status after SET_PLAYBACK_RATE does not show rate \(rate)\n".utf8))
                    exit(1)
                }
                samples.append(elapsed.seconds * 1000)
            }
            samples.sort()
            func pct(_ p: Double) -> Double { samples[min(samples.count - 1, Int((p / 100) * Double(samples.count)))] }
            let name = args.count == 4 ? "castdeck (network thread)" : "castdeck"
            print(#"{"peer":"\#(name)","iterations":\#(iterations),"p50_ms":\#(pct(50)),"p99_ms":\#(pct(99))}"#)
            await session.leave()
        } catch {
            FileHandle.standardError.write(Data("castdeck-bench-client: \(error)\n".utf8))
            exit(1)
        }
    }

    /// One status read, as `castctl status --json` does it, printed as JSON.
    static func status(_ device: DeviceAddress) async {
        var configuration = CastClientConfiguration()
        configuration.reconnect = .disabled
        let session = CastSession(device: device, configuration: configuration)
        do {
            let status = try await session.connect()
            await session.settledAuthentication()
            if let app = status.applications?.first(where: { $0.isIdleScreen != true }) {
                _ = try await session.join(appID: app.appId)
            }
            print(CastJSON.encode(BenchStatus(receiver: await session.receiverStatus, media: await session.media.status)))
            await session.disconnect()
        } catch {
            FileHandle.standardError.write(Data("castdeck-bench-client: \(error)\n".utf8))
            exit(1)
        }
    }
}

struct BenchStatus: Encodable {
    var receiver: ReceiverStatus?
    var media: MediaStatus?
}
