// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser

/// The everyday forms of castctl's short device commands, read without ArgumentParser.
///
/// ArgumentParser learns a command's options by reflection (Mirror over the property
/// wrappers) and asks the runtime whether types conform to its protocols; in a fresh process
/// each first question scans every conformance record in the binary. For `castctl status`
/// that was about 2 ms of a 12 ms process, on the path to the connection.
///
/// This reader accepts only a small, unambiguous grammar: the command's name first, then
/// `--device VALUE`, `--timeout VALUE`, `--json`, `-v`, `--require-auth` (and `--stream` or
/// one positional number where the command has them), each at most once, in any order, with
/// values that do not begin with `-`. It fills the very same command structs ArgumentParser
/// would and runs their own `validate()`. Anything else — help, `=` forms, repeats, an
/// unknown word, a value that does not parse, a validation error — gives nil, and the caller
/// parses with ArgumentParser, so every error and help text reads as it always did.
/// `QuickCommandLineTests` checks that the two agree on every vector of a large corpus.
enum QuickCommandLine {
    /// What a command takes beyond the client options.
    private enum Extra {
        case none
        /// `--stream`
        case streamFlag
        /// One positional number (`rate R`).
        case number
        /// One positional number and `--stream` (`volume LEVEL`).
        case numberAndStreamFlag
    }

    private static func extra(of name: String) -> Extra? {
        switch name {
        case "status", "play", "pause", "stop", "skip-ad", "next", "prev": return Extra.none
        case "mute", "unmute": return .streamFlag
        case "rate": return .number
        case "volume": return .numberAndStreamFlag
        default: return nil
        }
    }

    /// The command `arguments` (without the program name) stand for, or nil when they are not
    /// in the quick grammar or do not validate.
    static func parse(_ arguments: [String]) -> (any AsyncParsableCommand)? {
        guard let name = arguments.first, let extra = extra(of: name) else { return nil }
        var device: String?, timeout: Double?, json = false, verbose = false, requireAuth = false
        var stream = false, number: Double?
        var i = 1
        /// The value after an option: present, and not something that could be an option.
        func value() -> String? {
            guard i + 1 < arguments.count else { return nil }
            let v = arguments[i + 1]
            guard !v.hasPrefix("-") else { return nil }
            i += 1
            return v
        }
        while i < arguments.count {
            switch arguments[i] {
            case "--device":
                guard device == nil, let v = value() else { return nil }
                device = v
            case "--timeout":
                guard timeout == nil, let v = value(), let t = Double(v) else { return nil }
                timeout = t
            case "--json":
                guard !json else { return nil }
                json = true
            case "-v":
                guard !verbose else { return nil }
                verbose = true
            case "--require-auth":
                guard !requireAuth else { return nil }
                requireAuth = true
            case "--stream":
                guard !stream else { return nil }
                switch extra {
                case .streamFlag, .numberAndStreamFlag: stream = true
                case .none, .number: return nil
                }
            case let word:
                guard number == nil, !word.hasPrefix("-"), let n = Double(word) else { return nil }
                switch extra {
                case .number, .numberAndStreamFlag: number = n
                case .none, .streamFlag: return nil
                }
            }
            i += 1
        }

        var target = DeviceOption()
        target.device = device
        var auth = AuthOptions()
        auth.requireAuth = requireAuth
        var options = ClientOptions()
        options.target = target
        options.json = json
        options.timeout = timeout ?? 10
        options.verbose = verbose
        options.auth = auth
        do {
            try target.validate()
            try options.validate()
            let command: any AsyncParsableCommand
            switch name {
            case "status":
                var c = StatusCommand()
                c.options = options
                command = c
            case "play":
                var c = PlayCommand()
                c.options = options
                command = c
            case "pause":
                var c = PauseCommand()
                c.options = options
                command = c
            case "stop":
                var c = StopCommand()
                c.options = options
                command = c
            case "skip-ad":
                var c = SkipAdCommand()
                c.options = options
                command = c
            case "next":
                var c = NextCommand()
                c.options = options
                command = c
            case "prev":
                var c = PrevCommand()
                c.options = options
                command = c
            case "mute":
                var c = MuteCommand()
                c.options = options
                c.stream = stream
                command = c
            case "unmute":
                var c = UnmuteCommand()
                c.options = options
                c.stream = stream
                command = c
            case "rate":
                guard let number else { return nil }
                var c = RateCommand()
                c.options = options
                c.rate = number
                try c.validate()
                command = c
            case "volume":
                guard let number else { return nil }
                var c = VolumeCommand()
                c.options = options
                c.level = number
                c.stream = stream
                c.member = nil
                try c.validate()
                command = c
            default: return nil
            }
            return command
        } catch {
            return nil
        }
    }
}
