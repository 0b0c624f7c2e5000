// SPDX-License-Identifier: GPL-3.0-or-later
// castctl's command line, parsed the way the executable parses it: every subcommand with
// its options, and bad usage that must end with exit status 2 (castctl's promise).
import ArgumentParser
import Testing
import XCTest

@testable import CastCtlCommands

final class ArgumentParsingTests: XCTestCase {
    func parse<C: ParsableCommand>(
        _ args: [String], as _: C.Type = C.self,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> C {
        let command = try CastCtl.parseForExecution(args)
        return try XCTUnwrap(command as? C, "parsed as \(type(of: command))", file: file, line: line)
    }

    /// Bad usage: parsing fails and castctl exits with 2, saying why.
    func assertUsageError(_ args: [String], mentions text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try CastCtl.parseForExecution(args), file: file, line: line) { error in
            XCTAssertEqual(CastCtl.exitStatus(for: error), 2, "\(args)", file: file, line: line)
            let message = CastCtl.fullMessage(for: error)
            XCTAssertTrue(message.contains(text), "“\(message)” should mention “\(text)”", file: file, line: line)
        }
    }

    let device = ["--device", "127.0.0.1:8009"]

    func testClientOptionsAreSharedByEveryDeviceCommand() throws {
        let status = try parse(["status"] + device + ["--json", "--timeout", "2.5", "-v"], as: StatusCommand.self)
        XCTAssertEqual(status.options.target.device, "127.0.0.1:8009")
        XCTAssertTrue(status.options.json)
        XCTAssertEqual(status.options.timeout, 2.5)
        XCTAssertTrue(status.options.verbose)
        let defaults = try parse(["pause", "--device", "Kitchen"], as: PauseCommand.self)
        XCTAssertFalse(defaults.options.json)
        XCTAssertEqual(defaults.options.timeout, 10)
        XCTAssertFalse(defaults.options.verbose)
        _ = try parse(["play"] + device, as: PlayCommand.self)
        _ = try parse(["stop"] + device, as: StopCommand.self)
        _ = try parse(["skip-ad"] + device, as: SkipAdCommand.self)
        _ = try parse(["next"] + device, as: NextCommand.self)
        _ = try parse(["prev"] + device, as: PrevCommand.self)
        _ = try parse(["watch"] + device, as: WatchCommand.self)
        for name in ["watch", "play", "stop", "skip-ad", "next", "prev", "mute", "unmute", "tracks"] {
            assertUsageError([name, "--device", "tv", "--timeout", "0"], mentions: "--timeout")
        }
    }

    func testCast() throws {
        let c = try parse(
            ["cast", "https://example.com/movie.mp4"] + device + [
                "--title", "Movie", "--subtitle", "https://example.com/en.vtt,en,English", "--poster", "https://example.com/p.jpg",
                "--content-type", "video/mp4", "--ad-breaks", "breaks.json", "--start", "12", "--rate", "1.5", "--app", "ABCD1234",
            ], as: CastCommand.self)
        XCTAssertEqual(c.url, "https://example.com/movie.mp4")
        XCTAssertEqual(c.title, "Movie")
        XCTAssertEqual(c.subtitles, ["https://example.com/en.vtt,en,English"])
        XCTAssertEqual(c.poster, "https://example.com/p.jpg")
        XCTAssertEqual(c.contentType, "video/mp4")
        XCTAssertEqual(c.adBreaks, "breaks.json")
        XCTAssertEqual(c.start, 12)
        XCTAssertEqual(c.rate, 1.5)
        XCTAssertEqual(c.app, "ABCD1234")
        XCTAssertEqual(try parse(["cast", "https://example.com/a.mp3"] + device, as: CastCommand.self).app, "CC1AD845")
        // Anything without a scheme is a file on this computer (served by LocalMedia).
        XCTAssertEqual(try parse(["cast", "Videos/movie.mp4", "--media-port", "8011"] + device, as: CastCommand.self).mediaPort, 8011)
        assertUsageError(["cast", "movie.mp4", "--media-port", "0"] + device, mentions: "--media-port")
        assertUsageError(["cast", "https://example.com/a.mp4", "--start", "-3"] + device, mentions: "--start")
        assertUsageError(["cast", "https://example.com/a.mp4", "--rate", "0"] + device, mentions: "--rate")
        assertUsageError(["cast", "https://example.com/a.mp4", "--app", "XYZ"] + device, mentions: "--app")
        assertUsageError(["cast"] + device, mentions: "Give a URL")
    }

    func testSeek() throws {
        XCTAssertEqual(try parse(["seek", "90"] + device, as: SeekCommand.self).position, ["90"])
        XCTAssertEqual(try parse(["seek", "+30"] + device, as: SeekCommand.self).position, ["+30"])
        XCTAssertEqual(try parse(["seek", "-10"] + device, as: SeekCommand.self).position, ["-10"])
        XCTAssertEqual(try parse(["seek", "1:30"] + device, as: SeekCommand.self).position, ["1:30"])
        assertUsageError(["seek"] + device, mentions: "exactly one position")
        assertUsageError(["seek", "soon"] + device, mentions: "is not a position")
    }

    func testRateAndVolume() throws {
        XCTAssertEqual(try parse(["rate", "2"] + device, as: RateCommand.self).rate, 2)
        assertUsageError(["rate", "0"] + device, mentions: "greater than 0")
        assertUsageError(["rate", "fast"] + device, mentions: "fast")
        let v = try parse(["volume", "0.25", "--stream"] + device, as: VolumeCommand.self)
        XCTAssertEqual(v.level, 0.25)
        XCTAssertTrue(v.stream)
        XCTAssertFalse(try parse(["volume", "1"] + device, as: VolumeCommand.self).stream)
        assertUsageError(["volume", "1.5"] + device, mentions: "between 0 and 1")
    }

    func testMuteAndUnmute() throws {
        XCTAssertTrue(try parse(["mute", "--stream"] + device, as: MuteCommand.self).stream)
        XCTAssertFalse(try parse(["mute"] + device, as: MuteCommand.self).stream)
        XCTAssertTrue(try parse(["unmute", "--stream"] + device, as: UnmuteCommand.self).stream)
        assertUsageError(["mute", "--loud"] + device, mentions: "--loud")
    }

    func testTracks() throws {
        XCTAssertEqual(try parse(["tracks", "--on", "1", "3"] + device, as: TracksCommand.self).on, [1, 3])
        XCTAssertTrue(try parse(["tracks", "--off"] + device, as: TracksCommand.self).off)
        let list = try parse(["tracks"] + device, as: TracksCommand.self)
        XCTAssertTrue(list.on.isEmpty)
        XCTAssertFalse(list.off)
        assertUsageError(["tracks", "--on", "1", "--off"] + device, mentions: "not both")
        assertUsageError(["tracks", "--on", "one"] + device, mentions: "one")
    }

    func testStyle() throws {
        let s = try parse(
            ["style"] + device + [
                "--foreground", "#FFFF00FF", "--background", "#00000080", "--edge-type", "outline", "--edge-color", "#000000FF",
                "--font-scale", "1.2", "--font-family", "Cantarell", "--font-generic-family", "sans-serif", "--font-style", "bold",
                "--window-type", "rounded-corners", "--window-color", "#11223344", "--window-radius", "8",
            ], as: StyleCommand.self)
        XCTAssertEqual(s.foreground, "#FFFF00FF")
        XCTAssertEqual(s.background, "#00000080")
        XCTAssertEqual(s.edgeType, "outline")
        XCTAssertEqual(s.edgeColor, "#000000FF")
        XCTAssertEqual(s.fontScale, 1.2)
        XCTAssertEqual(s.fontFamily, "Cantarell")
        XCTAssertEqual(s.fontGenericFamily, "sans-serif")
        XCTAssertEqual(s.fontStyle, "bold")
        XCTAssertEqual(s.windowType, "rounded-corners")
        XCTAssertEqual(s.windowColor, "#11223344")
        XCTAssertEqual(s.windowRadius, 8)
        assertUsageError(["style"] + device, mentions: "at least one style option")
        assertUsageError(["style", "--foreground", "yellow"] + device, mentions: "is not a color")
        assertUsageError(["style", "--edge-type", "wavy"] + device, mentions: "--edge-type")
        assertUsageError(["style", "--font-scale", "0"] + device, mentions: "--font-scale")
        assertUsageError(["style", "--window-radius", "-1"] + device, mentions: "--window-radius")
    }

    func testSend() throws {
        let s = try parse(
            ["send", "--namespace", "urn:x-cast:com.example.game", "--app", "ABCD1234", "--linger", "2", "{}"] + device,
            as: SendCommand.self)
        XCTAssertEqual(s.namespace, "urn:x-cast:com.example.game")
        XCTAssertEqual(s.app, "ABCD1234")
        XCTAssertEqual(s.linger, 2)
        XCTAssertEqual(s.message, "{}")
        assertUsageError(["send", "--namespace", "game", "{}"] + device, mentions: "game")
        assertUsageError(["send", "--namespace", "urn:x-cast:a", "--linger", "-1", "{}"] + device, mentions: "--linger")
        assertUsageError(["send", "{}"] + device, mentions: "--namespace")
    }

    func testDiscover() throws {
        let d = try parse(
            [
                "discover", "--timeout", "1", "--count", "2", "--json", "--add", "10.0.0.5", "--add", "tv.lan:8010",
                "--forget", "10.0.0.6:8009",
            ], as: DiscoverCommand.self)
        XCTAssertEqual(d.timeout, 1)
        XCTAssertEqual(d.count, 2)
        XCTAssertTrue(d.json)
        XCTAssertEqual(d.add, ["10.0.0.5", "tv.lan:8010"])
        XCTAssertEqual(d.forget, ["10.0.0.6:8009"])
        let defaults = try parse(["discover"], as: DiscoverCommand.self)
        XCTAssertEqual(defaults.timeout, 3)
        XCTAssertNil(defaults.count)
        assertUsageError(["discover", "--add", "tv:99999"], mentions: "TCP port")
        assertUsageError(["discover", "--count", "0"], mentions: "--count")
        assertUsageError(["discover", "--timeout", "0"], mentions: "--timeout")
    }

    func testReceiver() throws {
        let r = try parse(
            [
                "receiver", "--host", "0.0.0.0", "--port", "0", "--name", "Den", "--uuid", String(repeating: "a", count: 32),
                "--model", "Nest Hub", "--app", "ABCD1234=urn:x-cast:com.example.game", "--announce",
                "--stop-pongs-after", "3", "--close-after", "5", "--delay-replies", "20", "--malformed-media-status",
                "--clock", "manual", "--heartbeat-interval", "1", "--heartbeat-timeout", "3", "-v",
            ],
            as: ReceiverCommand.self)
        XCTAssertEqual(r.host, "0.0.0.0")
        XCTAssertEqual(r.port, 0)
        XCTAssertEqual(r.name, "Den")
        XCTAssertEqual(r.model, "Nest Hub")
        XCTAssertEqual(r.apps, ["ABCD1234=urn:x-cast:com.example.game"])
        XCTAssertTrue(r.announce)
        XCTAssertEqual(r.stopPongsAfter, 3)
        XCTAssertEqual(r.closeAfter, 5)
        XCTAssertEqual(r.delayReplies, 20)
        XCTAssertTrue(r.malformedMediaStatus)
        XCTAssertEqual(r.heartbeatInterval, 1)
        XCTAssertEqual(r.heartbeatTimeout, 3)
        XCTAssertTrue(r.verbose)
        let defaults = try parse(["receiver"], as: ReceiverCommand.self)
        XCTAssertEqual(defaults.port, 8009)
        XCTAssertFalse(defaults.announce)
        assertUsageError(["receiver", "--port", "70000"], mentions: "--port")
        assertUsageError(["receiver", "--uuid", "xyz"], mentions: "--uuid")
        assertUsageError(["receiver", "--close-after", "0"], mentions: "--close-after")
        assertUsageError(["receiver", "--delay-replies", "-5"], mentions: "--delay-replies")
        assertUsageError(["receiver", "--heartbeat-interval", "5", "--heartbeat-timeout", "2"], mentions: "--heartbeat-timeout")
        assertUsageError(["receiver", "--clock", "sundial"], mentions: "sundial")
    }

    func testBadUsageEverywhere() {
        assertUsageError(["teleport"], mentions: "teleport")
        assertUsageError(["status", "--device", "tv", "--timeout", "0"], mentions: "--timeout")
        assertUsageError(["status", "--device", "tv", "--timeout", "soon"], mentions: "soon")
        assertUsageError(["play", "--device"], mentions: "--device")
    }

    /// The executable's quick parse (no completion-script check) gives the same commands and the
    /// same help, usage and errors as ArgumentParser's own `parseAsRoot`.
    func testTheQuickParseChangesNothingAPersonSees() throws {
        // What a person sees: the error of the parse, or of running what it gave (help).
        func outcome(_ parse: () throws -> any ParsableCommand) -> (message: String, status: Int32) {
            do {
                var command = try parse()
                try command.run()
                return ("ran \(type(of: command))", 0)
            } catch {
                return (CastCtl.fullMessage(for: error), CastCtl.exitStatus(for: error))
            }
        }
        for args in [
            ["status", "--help"], ["--help"], ["queue", "add", "--help"], ["help", "status"], ["teleport"],
            ["status", "--device"], ["-h"],
        ] {
            let quick = outcome { try CastCtl.parseForExecution(args) }
            let standard = outcome { try CastCtl.parseAsRoot(args) }
            XCTAssertEqual(quick.message, standard.message, "\(args)")
            XCTAssertEqual(quick.status, standard.status, "\(args)")
            XCTAssertFalse(quick.message.contains("castctl castctl"), "\(args)")
            XCTAssertTrue(quick.message.contains("castctl"), "\(args): \(quick.message)")
        }
        XCTAssertTrue(CastCtl.fullMessage(for: CleanExit.helpRequest(CastCtl.self)).contains("USAGE: castctl <subcommand>"))
        // `castctl help status` is ArgumentParser's help command, parsed the standard way.
        var help = try CastCtl.parseForExecution(["help", "status"])
        XCTAssertFalse(help is StatusCommand)
        XCTAssertThrowsError(try help.run()) { XCTAssertTrue(CastCtl.fullMessage(for: $0).contains("USAGE: castctl status")) }
        // Nested subcommands come out of the quick parse too.
        _ = try parse(["queue", "list"] + device, as: QueueCommand.List.self)
        // Asking for a completion script takes ArgumentParser's own path.
        XCTAssertThrowsError(try CastCtl.parseForExecution(["--generate-completion-script", "bash"])) { error in
            XCTAssertTrue(CastCtl.fullMessage(for: error).contains("castctl"))
            XCTAssertEqual(CastCtl.exitStatus(for: error), 0)
        }
    }

    func testHelpIsNotAnError() {
        XCTAssertEqual(CastCtl.exitStatus(for: CleanExit.helpRequest(CastCtl.self)), 0)
        XCTAssertEqual(CastCtl.exitStatus(for: CleanExit.message("castctl 0.1.0")), 0)
    }

    func testAFailureIsStatusOne() {
        XCTAssertEqual(CastCtl.exitStatus(for: CommandFailure("the device did not answer")), 1)
    }

    // MARK: queues

    func testCastSeveralItemsIsAQueue() throws {
        let c = try parse(["cast", "https://example.com/a.mp3", "https://example.com/b.mp3", "--repeat", "all"] + device, as: CastCommand.self)
        XCTAssertEqual(c.sources.count, 2)
        XCTAssertTrue(c.isQueue)
        XCTAssertEqual(c.repeatMode, .all)
        let one = try parse(["cast", "https://example.com/a.mp3"] + device, as: CastCommand.self)
        XCTAssertFalse(one.isQueue)
        assertUsageError(
            ["cast", "https://example.com/a.mp3", "https://example.com/b.mp3", "--title", "T"] + device, mentions: "--title applies to a single item")
        assertUsageError(["cast", "https://example.com/a.mp3", "--repeat", "all"] + device, mentions: "--repeat is for a queue")
        assertUsageError(["cast", "https://example.com/a.mp3", "https://example.com/b.mp3", "--repeat", "sometimes"] + device, mentions: "--repeat")
        assertUsageError(["cast"] + device, mentions: "Give a URL")
    }

    func testQueueSubcommands() throws {
        _ = try parse(["queue"] + device + ["--json"], as: QueueCommand.List.self)
        let add = try parse(["queue", "add", "a.mp3", "https://example.com/b.mp3", "--next"] + device, as: QueueCommand.Add.self)
        XCTAssertEqual(add.sources, ["a.mp3", "https://example.com/b.mp3"])
        XCTAssertTrue(add.next)
        let remove = try parse(["queue", "remove", "3", "1"] + device, as: QueueCommand.Remove.self)
        XCTAssertEqual(remove.positions, [3, 1])
        let move = try parse(["queue", "move", "4", "1"] + device, as: QueueCommand.Move.self)
        XCTAssertEqual([move.from, move.to], [4, 1])
        XCTAssertEqual(try parse(["queue", "jump", "2"] + device, as: QueueCommand.Jump.self).position, 2)
        for (word, mode) in [("off", QueueRepeatArgument.off), ("all", .all), ("one", .one), ("shuffle", .shuffle)] {
            XCTAssertEqual(try parse(["queue", "repeat", word] + device, as: QueueCommand.Repeat.self).mode, mode)
        }
        assertUsageError(["queue", "remove"] + device, mentions: "at least one item")
        assertUsageError(["queue", "remove", "0"] + device, mentions: "Positions start at 1")
        assertUsageError(["queue", "move", "1"] + device, mentions: "to")
        assertUsageError(["queue", "jump", "x"] + device, mentions: "x")
        assertUsageError(["queue", "repeat", "twice"] + device, mentions: "twice")
        assertUsageError(["queue", "add"] + device, mentions: "at least one")
    }
}

/// Plain output of text a device sent cannot drive the terminal or reorder the line.
@Suite struct TerminalSafeOutputTests {
    @Test func controlAndBidiCharactersAreEscaped() {
        let title = "Film\u{202E}evil\u{1B}[2J\u{7}\u{2067}x"
        #expect(Output.terminalSafe("Media:   \(title)") == "Media:   Film\\u{202E}evil\\u{1B}[2J\\u{7}\\u{2067}x")
    }

    @Test func ordinaryTextAndOurLineBreaksStay() {
        let text = "Device:  Living Room TV\nMedia:   فارسی 🎬 e\u{301}\u{200D}"
        #expect(Output.terminalSafe(text) == text)
    }
}

/// castctl prints what a device sends without trusting numbers to fit (issue 17).
@Test func outputOfAbsurdNumbers() {
    #expect(Output.seconds(1e308) == "596523:14:07")
    #expect(Output.seconds(-5) == "0:00")
    #expect(Output.seconds(.nan) == "--:--")
    #expect(Output.percent(0.4) == "40 %")
    #expect(Output.percent(1e308).hasSuffix(" %"))
    #expect(Output.number(1e308) == "1e+308")
    #expect(Output.number(3) == "3")
}
