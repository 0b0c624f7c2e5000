/// AppModel produces sentences for people (errors, banners) but must not import GLib; the app
/// installs gettext here at start-up. The marker is `tr(...)`, as in the UI, so xgettext
/// collects these strings too.
public enum Localization {
    nonisolated(unsafe) public static var translate: @Sendable (String) -> String = { $0 }
}

func tr(_ message: String, _ args: CustomStringConvertible...) -> String {
    var out = Localization.translate(message)
    for (i, a) in args.enumerated() {
        out = out.split(separator: "{\(i)}", omittingEmptySubsequences: false).joined(separator: a.description)
    }
    return out
}

/// "1:05:03" / "4:07" / "0:25", using Western digits (what Cast apps show everywhere).
public func formatTime(_ seconds: Double) -> String {
    guard seconds.isFinite else { return "0:00" }
    let total = Int(max(0, seconds).rounded(.down))
    let h = total / 3600, m = (total % 3600) / 60, s = total % 60
    let ss = s < 10 ? "0\(s)" : "\(s)"
    if h > 0 { return "\(h):\(m < 10 ? "0\(m)" : "\(m)"):\(ss)" }
    return "\(m):\(ss)"
}
