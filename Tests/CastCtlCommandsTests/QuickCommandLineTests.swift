// SPDX-License-Identifier: GPL-3.0-or-later
// castctl's quick reader of everyday device commands (QuickCommandLine) against ArgumentParser:
// whatever the quick reader accepts, ArgumentParser accepts too and gives the same command
// with the same values; whatever it declines is left to ArgumentParser.
import ArgumentParser
import Testing

@testable import CastCtlCommands

@Suite struct QuickCommandLineTests {
    /// Every value a command carries, as text, or nil for a command this test does not know.
    static func describe(_ command: any ParsableCommand) -> String? {
        func client(_ o: ClientOptions) -> String {
            "device=\(o.target.device ?? "nil") json=\(o.json) timeout=\(o.timeout) v=\(o.verbose) auth=\(o.auth.requireAuth)"
        }
        switch command {
        case let c as StatusCommand: return "status " + client(c.options)
        case let c as PlayCommand: return "play " + client(c.options)
        case let c as PauseCommand: return "pause " + client(c.options)
        case let c as StopCommand: return "stop " + client(c.options)
        case let c as SkipAdCommand: return "skip-ad " + client(c.options)
        case let c as NextCommand: return "next " + client(c.options)
        case let c as PrevCommand: return "prev " + client(c.options)
        case let c as MuteCommand: return "mute stream=\(c.stream) " + client(c.options)
        case let c as UnmuteCommand: return "unmute stream=\(c.stream) " + client(c.options)
        case let c as RateCommand: return "rate \(c.rate) " + client(c.options)
        case let c as VolumeCommand: return "volume \(c.level) stream=\(c.stream) " + client(c.options)
        default: return nil
        }
    }

    static let commands = [
        "status", "play", "pause", "stop", "skip-ad", "next", "prev", "mute", "unmute",
        "rate", "volume", "seek", "watch", "tracks", "cast", "queue", "receiver", "help", "--help",
    ]

    /// Pieces of command lines: good options, bad values, forms the quick reader leaves alone.
    static let pieces: [[String]] = [
        ["--json"], ["-v"], ["--require-auth"], ["--stream"],
        ["--device", "tv"], ["--device", "127.0.0.1:8009"], ["--device", ""], ["--device", "-x"], ["--device"],
        ["--device", "  "], ["--device=tv"],
        ["--timeout", "2.5"], ["--timeout", "0"], ["--timeout", "soon"], ["--timeout", "-1"], ["--timeout", "1e400"],
        ["--timeout", "0x10"], ["--timeout=3"],
        ["1.5"], ["0"], ["0.5"], ["2"], ["-1"], ["nan"], ["inf"], ["1e-3"],
        ["--help"], ["-h"], ["--json=true"], ["-vv"], ["--"], ["extra"], ["--version"], ["-V"],
    ]

    static let goodPieces: [[String]] = [
        ["--json"], ["-v"], ["--require-auth"], ["--stream"], ["--device", "tv"], ["--timeout", "2.5"], ["0.5"], ["1.5"],
    ]

    /// Either ArgumentParser's command, described, or its error as a person would see it.
    static func standard(_ arguments: [String]) -> Result<String, Failure> {
        do {
            let command = try CastCtl.parseAsRoot(arguments)
            return .success(describe(command) ?? "other \(type(of: command))")
        } catch {
            return .failure(Failure(text: CastCtl.fullMessage(for: error)))
        }
    }

    struct Failure: Error, Equatable { var text: String }

    /// Checks one command line; true when the quick reader took it.
    static func check(_ arguments: [String]) -> Bool {
        guard let quick = QuickCommandLine.parse(arguments) else { return false }
        let quickText = describe(quick)
        switch standard(arguments) {
        case .success(let text):
            #expect(quickText == text, "\(arguments)")
        case .failure(let failure):
            Issue.record("\(arguments): quick reader gave \(quickText ?? "?"), ArgumentParser refused: \(failure.text)")
        }
        return true
    }

    @Test func agreesWithArgumentParserOnEveryShortCommandLine() {
        var taken = 0, total = 0
        for command in Self.commands {
            total += 1
            if Self.check([command]) { taken += 1 }
            for a in Self.pieces {
                total += 1
                if Self.check([command] + a) { taken += 1 }
                for b in Self.pieces {
                    total += 1
                    if Self.check([command] + a + b) { taken += 1 }
                }
            }
        }
        // Enough of the corpus goes the quick way for the comparison to mean something.
        #expect(taken > 250, "only \(taken) of \(total) command lines were read quickly")
    }

    @Test func agreesOnLongerCommandLines() {
        // Two different pieces the quick reader takes and any third piece, the third first,
        // between or last; one command of each grammar and one it leaves alone.
        var taken = 0
        let good = Self.goodPieces
        for command in ["status", "skip-ad", "mute", "rate", "volume", "seek"] {
            for i in good.indices {
                for j in good.indices where j > i {
                    let a = good[i], b = good[j]
                    for c in Self.pieces {
                        for line in [a + b + c, c + a + b, a + c + b] where Self.check([command] + line) { taken += 1 }
                    }
                }
            }
        }
        #expect(taken > 400, "only \(taken) longer command lines were read quickly")
    }

    @Test func readsTheEverydayForms() throws {
        let device = ["--device", "127.0.0.1:8009"]
        let status = try #require(QuickCommandLine.parse(["status"] + device + ["--json"]) as? StatusCommand)
        #expect(status.options.target.device == "127.0.0.1:8009")
        #expect(status.options.json && !status.options.verbose && status.options.timeout == 10)
        let rate = try #require(QuickCommandLine.parse(["rate", "1.5", "-v", "--timeout", "3"] + device) as? RateCommand)
        #expect(rate.rate == 1.5 && rate.options.verbose && rate.options.timeout == 3)
        let volume = try #require(QuickCommandLine.parse(["volume", "--stream", "0.25"] + device) as? VolumeCommand)
        #expect(volume.level == 0.25 && volume.stream)
        for name in ["play", "pause", "stop", "skip-ad", "next", "prev", "mute", "unmute"] {
            #expect(QuickCommandLine.parse([name] + device) != nil, "\(name)")
        }
    }

    @Test func leavesEverythingElseToArgumentParser() {
        let device = ["--device", "tv"]
        for arguments in [
            ["status", "--help"], ["status", "--device=tv"], ["status", "--json", "--json"] + device,
            ["rate"] + device, ["rate", "0"] + device, ["rate", "-1"] + device, ["volume", "2"] + device,
            ["status", "--timeout", "0"] + device, ["seek", "10"] + device, ["status", "--stream"] + device,
            ["play", "extra"] + device, ["help", "status"], [], ["--device", "tv", "status"],
        ] {
            #expect(QuickCommandLine.parse(arguments) == nil, "\(arguments)")
        }
    }
}
