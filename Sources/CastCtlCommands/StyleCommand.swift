// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient
import CastProtocol

/// `castctl style`: change how subtitles are drawn. Unspecified properties keep their current value.
struct StyleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "style", abstract: "Change the text-track (subtitle) style.",
        discussion: "Example: castctl style --foreground '#FFFF00FF' --background '#00000080' --edge-type outline --font-scale 1.5")

    @OptionGroup var options: ClientOptions

    @Option(help: ArgumentHelp("Text color.", valueName: "#RRGGBBAA")) var foreground: String?
    @Option(help: ArgumentHelp("Background color.", valueName: "#RRGGBBAA")) var background: String?
    @Option(name: .customLong("edge-type"), help: "none, outline, drop-shadow, raised or depressed.") var edgeType: String?
    @Option(name: .customLong("edge-color"), help: ArgumentHelp("Edge color.", valueName: "#RRGGBBAA")) var edgeColor: String?
    @Option(name: .customLong("font-scale"), help: "Font scale, 1 = normal.") var fontScale: Double?
    @Option(name: .customLong("font-family"), help: "A font family name.") var fontFamily: String?
    @Option(name: .customLong("font-generic-family"), help: "sans-serif, monospaced-sans-serif, serif, monospaced-serif, casual, cursive or small-capitals.")
    var fontGenericFamily: String?
    @Option(name: .customLong("font-style"), help: "normal, bold, bold-italic or italic.") var fontStyle: String?
    @Option(name: .customLong("window-type"), help: "none, normal or rounded-corners.") var windowType: String?
    @Option(name: .customLong("window-color"), help: ArgumentHelp("Window color.", valueName: "#RRGGBBAA")) var windowColor: String?
    @Option(name: .customLong("window-radius"), help: "Corner radius in pixels (rounded-corners).") var windowRadius: Double?

    static func wire(_ text: String) -> String { text.uppercased().replacingOccurrences(of: "-", with: "_") }

    static func choice<E: OpenStringEnum>(_ text: String?, _: E.Type, option: String) throws -> E? {
        guard let text else { return nil }
        let value = E(rawValue: wire(text))
        guard value.isKnown else {
            let names = E.wireNames.map { $0.1.lowercased().replacingOccurrences(of: "_", with: "-") }
            throw ValidationError("--\(option) must be one of: \(names.joined(separator: ", ")).")
        }
        return value
    }

    static func color(_ text: String?, option: String) throws -> String? {
        guard let text else { return nil }
        guard let c = CastColor(hex: text) else { throw ValidationError("--\(option) “\(text)” is not a color: write #RRGGBBAA or #RRGGBB.") }
        return c.hex
    }

    /// The style change as given on the command line, applied over `base`.
    func style(over base: TextTrackStyle?) throws -> TextTrackStyle {
        var s = base ?? TextTrackStyle()
        s.customData = nil
        if let v = try Self.color(foreground, option: "foreground") { s.foregroundColor = v }
        if let v = try Self.color(background, option: "background") { s.backgroundColor = v }
        if let v = try Self.color(edgeColor, option: "edge-color") { s.edgeColor = v }
        if let v = try Self.color(windowColor, option: "window-color") { s.windowColor = v }
        if let v = try Self.choice(edgeType, TextTrackEdgeType.self, option: "edge-type") { s.edgeType = v }
        if let v = try Self.choice(fontGenericFamily, TextTrackFontGenericFamily.self, option: "font-generic-family") { s.fontGenericFamily = v }
        if let v = try Self.choice(fontStyle, TextTrackFontStyle.self, option: "font-style") { s.fontStyle = v }
        if let v = try Self.choice(windowType, TextTrackWindowType.self, option: "window-type") { s.windowType = v }
        if let fontScale { s.fontScale = fontScale }
        if let fontFamily { s.fontFamily = fontFamily }
        if let windowRadius { s.windowRoundedCornerRadius = windowRadius }
        return s
    }

    func validate() throws {
        _ = try style(over: nil)
        if let fontScale, !(fontScale > 0) { throw ValidationError("--font-scale must be greater than 0.") }
        if let windowRadius, !(windowRadius >= 0) { throw ValidationError("--window-radius must be 0 or more.") }
        let given: [Any?] = [
            foreground, background, edgeType, edgeColor, fontScale, fontFamily, fontGenericFamily, fontStyle, windowType, windowColor, windowRadius,
        ]
        if given.allSatisfy({ $0 == nil }) { throw ValidationError("Give at least one style option (see --help).") }
    }

    func run() async throws {
        let me = self
        try await options.runMediaCommand { media throws(CastClientError) in
            let style: TextTrackStyle
            let current = await media.mediaInformation?.textTrackStyle
            do {
                style = try me.style(over: current)
            } catch {
                throw .invalidArgument("\(error)")
            }
            _ = try await media.setTextTrackStyle(style)
        }
    }
}
