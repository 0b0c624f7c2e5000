// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// The bar at the bottom while a session has media (mini-controller.ui): thumbnail, title,
/// Previous/Next (with a queue), play/pause, stop and the mini player (bound to the window's
/// actions), a thin progress line. On a narrow window the title keeps its room: Previous, Stop
/// and the mini player go into a More menu.
@MainActor
final class MiniController {
    static let resource = CastDeckApplication.resourcePath + "/ui/mini-controller.ui"
    /// Below this window width the secondary buttons move into More.
    static let narrowWidth = 560

    let model: AppModel
    let ui: Builder
    let root: Box
    let view: CompactPlayerView
    var onOpen: (() -> Void)?
    private var narrow = false

    init(model: AppModel) throws {
        self.model = model
        ui = try Builder(resource: Self.resource)
        root = ui.get("root")
        view = CompactPlayerView(
            model: model, artworkUse: .miniControllerThumbnail, thumb: ui.get("thumb"), title: ui.get("title"),
            subtitle: ui.get("subtitle"), play: ui.get("play"), progress: ui.get("progress"))
        ui.get("open", as: Button.self).onClicked { [unowned self] in self.onOpen?() }
    }

    func layout(width: Int) {
        let narrow = width < Self.narrowWidth
        guard narrow != self.narrow else { return }
        self.narrow = narrow
        render()
    }

    func render() {
        view.render()
        // Once the media is over only Play Again (the play button, CompactPlayerView) is left.
        let over = model.phase.isOver
        let queue = model.hasQueue && !over
        ui.get("previous", as: Button.self).isVisible = queue && !narrow
        ui.get("next", as: Button.self).isVisible = queue
        ui.get("stop", as: Button.self).isVisible = !narrow && !over
        ui.get("mini-player", as: Button.self).isVisible = !narrow
        ui.get("more", as: MenuButton.self).isVisible = narrow
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

/// Keeps times and "2×" in left-to-right order inside right-to-left text (Unicode isolates).
func isolateLTR(_ s: String) -> String { "\u{2066}" + s + "\u{2069}" }
