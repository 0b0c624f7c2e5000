// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastProtocol

/// How an app session went away when the sender did not end it, told from what the device
/// reported before and after (it never says why). One sentence each, written here once: the
/// window translates it (AppModel passes its gettext), castctl prints it in English.
///
///   the app is gone, nothing else runs ── its media was paused ──▶ ambientMode
///                                      └─ nothing was playing ──▶ idleTimeout
///                                      └─ it was playing ───────▶ closed
///   another app runs now ──────────────────────────────────────▶ takenOver(that app)
///   isActiveInput turned false ────────────────────────────────▶ inputSwitched
///   the link dropped and the device came back without it ──────▶ restarted
public enum SessionEnding: Equatable, Sendable {
    /// Paused too long: the device tore the app down (ambient mode).
    case ambientMode
    /// Nothing played for a while: the device (a hub) went back to its home screen.
    case idleTimeout
    /// Closed while it played (someone pressed stop on the device or another phone).
    case closed
    /// Another sender started something else: an app by its name, or other media by its title.
    case takenOver(by: String)
    /// The TV shows another input now.
    case inputSwitched
    /// The device restarted and came back without it.
    case restarted

    /// Turns a message and its arguments into the sentence shown: the window's gettext, or
    /// `english` (the message as written, `{0}`, `{1}` … filled in).
    public typealias Localizer = @Sendable (String, [String]) -> String

    public static let english: Localizer = { message, args in
        var out = message
        for (i, a) in args.enumerated() { out = out.replacingAll("{\(i)}", with: a) }
        return out
    }

    /// What ended our app, from the receiver status before and after; nil while it still runs
    /// on an input someone watches. `mediaState` is the last state of its media (nil: none).
    public static func classify(
        before: ReceiverStatus?, after: ReceiverStatus, app: ReceiverApplication, mediaState: PlayerState?
    ) -> SessionEnding? {
        if before?.isActiveInput != false, after.isActiveInput == false { return .inputSwitched }
        let running = (after.applications ?? []).filter { $0.isIdleScreen != true }
        if running.contains(where: { $0.sessionId == app.sessionId }) { return nil }
        if let other = running.first { return .takenOver(by: other.displayName ?? other.appId) }
        switch mediaState {
        case .paused?: return .ambientMode
        case .playing?, .buffering?, .loading?: return .closed
        case .idle?, .unknown?, nil: return .idleTimeout
        }
    }

    /// The one sentence: `device` is the device's name, `title` what played (nil: nothing had).
    public func sentence(device: String, title: String?, _ tr: Localizer = english) -> String {
        switch self {
        case .ambientMode:
            if let title { return tr("{0} closed {1} after it had been paused for a long time.", [device, title]) }
            return tr("{0} closed the app after it had been paused for a long time.", [device])
        case .idleTimeout:
            return tr("{0} went back to its home screen because nothing was playing.", [device])
        case .closed:
            if let title { return tr("{1} was stopped on {0}.", [device, title]) }
            return tr("The app on {0} was closed.", [device])
        case .takenOver(let what):
            return tr("Someone else started {1} on {0}.", [device, what])
        case .inputSwitched:
            return tr("{0} switched to another input.", [device])
        case .restarted:
            return tr("{0} stopped playing {1}, probably because it restarted.", [device, title ?? "?"])
        }
    }
}

extension String {
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
