// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient

/// `castctl seek SECONDS|+N|-N`
struct SeekCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seek", abstract: "Seek to SECONDS, or forward (+N) or back (-N) by N seconds.",
        discussion: "Examples: castctl seek 90   castctl seek +30   castctl seek -10   (MM:SS and H:MM:SS work too)")

    @OptionGroup var options: ClientOptions

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("SECONDS, +N or -N.", valueName: "position"))
    var position: [String] = []

    enum Target: Equatable { case absolute(Double), relative(Double) }

    static func parse(_ text: String) throws -> Target {
        var t = Substring(text)
        var sign: Double? = nil
        if t.hasPrefix("+") {
            sign = 1
            t = t.dropFirst()
        } else if t.hasPrefix("-") {
            sign = -1
            t = t.dropFirst()
        }
        var seconds = 0.0
        let fields = t.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count) else { throw ValidationError("“\(text)” is not a position: write SECONDS, +N, -N or MM:SS.") }
        for f in fields {
            guard let v = Double(f), v.isFinite, v >= 0 else { throw ValidationError("“\(text)” is not a position: write SECONDS, +N, -N or MM:SS.") }
            seconds = seconds * 60 + v
        }
        if let sign { return .relative(sign * seconds) }
        return .absolute(seconds)
    }

    func validate() throws {
        guard position.count == 1 else { throw ValidationError("Give exactly one position: SECONDS, +N or -N.") }
        _ = try Self.parse(position[0])
    }

    func run() async throws {
        let target = try Self.parse(position[0])
        try await options.runMediaCommand { media throws(CastClientError) in
            switch target {
            case .absolute(let s): _ = try await media.seek(to: s)
            case .relative(let d): _ = try await media.seek(by: d)
            }
        }
    }
}
