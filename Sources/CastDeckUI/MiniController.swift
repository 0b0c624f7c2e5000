// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// The bar at the bottom while a session has media (mini-controller.ui): thumbnail, title,
/// play/pause and stop (bound to win.toggle-play and win.stop-casting), a thin progress line.
@MainActor
final class MiniController {
    static let resource = CastDeckApplication.resourcePath + "/ui/mini-controller.ui"

    let model: AppModel
    let ui: Builder
    let root: Box
    let view: CompactPlayerView
    var onOpen: (() -> Void)?

    init(model: AppModel) throws {
        self.model = model
        ui = try Builder(resource: Self.resource)
        root = ui.get("root")
        view = CompactPlayerView(model: model, thumb: ui.get("thumb"), title: ui.get("title"),
                                 subtitle: ui.get("subtitle"), play: ui.get("play"), progress: ui.get("progress"))
        ui.get("open", as: Button.self).onClicked { [unowned self] in self.onOpen?() }
    }

    func render() {
        view.render()
        // Previous / Next only with a queue (QueueView.swift renders the expanded ones).
        for id in ["previous", "next"] { ui.get(id, as: Button.self).isVisible = model.hasQueue }
    }

    func renderProgress() { view.renderProgress() }
}

/// Play/Pause as one button: icon, accessible name and tooltip follow the player state.
@MainActor
func renderPlayButton(_ button: Button, playing: Bool) {
    button.iconName = playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic"
    let name = playing ? tr("Pause") : tr("Play")
    button.setAccessibleName(name)
    button.setTooltip(name)
}

/// A time ("1:05:03") in the UI language's digits.
func localizedTime(_ seconds: Double) -> String { Gettext.localizeDigits(formatTime(seconds)) }

/// Keeps times and "2×" in left-to-right order inside right-to-left text (Unicode isolates).
func isolateLTR(_ s: String) -> String { "\u{2066}" + s + "\u{2069}" }
