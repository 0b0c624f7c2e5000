// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import CastCore
import GtkInterop

/// The mini player (mini-player.ui): a small window of its own with artwork, title, subtitle,
/// a progress line, Play/Pause, Stop Casting and "Return to full controller"; during an ad, the
/// ad and Skip Ad / Learn More (MiniPlayer+Ads.swift). Its buttons are the command table's
/// (win.toggle-play, win.stop-casting, win.skip-ad, win.learn-more) and app.full-controller; Space plays
/// or pauses, Escape returns to the full controller. It renders AppModel like the main window,
/// so another sender's pause shows here too.
@MainActor
final class MiniPlayer {
    static let resource = CastDeckApplication.resourcePath + "/ui/mini-player.ui"

    let model: AppModel
    let ui: Builder
    let window: AdwWindow
    let view: CompactPlayerView
    let actions: ModelActions
    var tokens: [ObservationToken] = []
    /// The main window's position tick, shared (PlaybackClock.swift).
    let clock: PlaybackClock
    /// Called after the user (or the window manager) closed the window.
    var onClosed: (() -> Void)?

    init(app: Application, model: AppModel, clock: PlaybackClock) throws {
        self.model = model
        self.clock = clock
        ui = try Builder(resource: Self.resource)
        window = ui.get("window")
        view = CompactPlayerView(
            model: model, artworkUse: .miniPlayer, thumb: ui.get("artwork"), title: ui.get("title"),
            subtitle: ui.get("subtitle"), play: ui.get("play"), progress: ui.get("progress"))
        actions = ModelActions(model: model, names: [.togglePlayPause, .stopCasting, .playAgain, .skipAd, .openAdLink])
        actions.install(into: window)
        window.asWindow.setApplication(app)
        window.asWindow.addShortcut("Escape", action: "app.full-controller")
        // Closing destroys the window; the next opening makes a new mini player. A hidden
        // window left behind can crash GTK 4.8 under a screen reader (Window.destroyWhenClosed).
        window.asWindow.onCloseRequest { [unowned self] in
            self.dismiss()
            self.onClosed?()
            return true
        }
        tokens.append(
            observe { [unowned self] in
                self.actions.refresh()
                self.view.render()
                self.renderAd()  // MiniPlayer+Ads.swift
                self.ui.get("stop", as: Button.self).isVisible = !self.model.phase.isOver
                self.clock.update()
            })
        clock.add(
            self, isShown: { [unowned self] in self.isShown },
            tick: { [unowned self] in
                // Skip Ad becomes possible with time alone, as the main window's tick knows.
                self.actions.refresh()
                self.view.renderProgress()
                self.renderAd()  // the Skip Ad countdown
            })
    }

    func present() {
        window.asWindow.present()
        clock.update()
    }

    var isShown: Bool { window.asWindow.isVisible }

    /// Destroys the window without calling `onClosed` (the application is switching windows)
    /// and stops rendering. The builder keeps the destroyed window's memory, so `isShown`
    /// stays safe to ask (false from now on).
    func dismiss() {
        for token in tokens { token.cancel() }
        tokens = []
        clock.remove(self)
        window.asWindow.destroy()
    }

}

/// Artwork, title, subtitle, Play/Pause and a progress line rendered from AppModel: the mini
/// controller's bar and the mini player show the same things.
@MainActor
final class CompactPlayerView {
    let model: AppModel
    let thumb: Image
    let title: Label
    let subtitle: Label
    let play: Button
    let progress: ProgressBar
    /// Which of the artwork's sizes this view shows (the bar's thumbnail or the mini player's).
    let artworkUse: ImageUse
    private var renderedArtwork: String?

    init(model: AppModel, artworkUse: ImageUse, thumb: Image, title: Label, subtitle: Label, play: Button, progress: ProgressBar) {
        self.model = model
        self.artworkUse = artworkUse
        self.thumb = thumb
        self.title = title
        self.subtitle = subtitle
        self.play = play
        self.progress = progress
    }

    func render() {
        // During an ad: "Ad 1 of 3", the clip's title and its poster (MiniPlayer+Ads.swift).
        let ad = adLines(castingTo: model.sessionDeviceName)
        title.text = ad?.title ?? model.title
        let phase = model.phase
        if let ended = phase.endedText {
            // Over: say how it ended, and the play button plays it again (nothing else works).
            subtitle.text = Localization.joinParts([ended, model.sessionDeviceName ?? ""])
            play.actionName = "win.play-again"
            play.iconName = "view-refresh-symbolic"
            play.setAccessibleName(tr("Play Again"))
            play.setTooltip(tr("Play Again"))
        } else {
            subtitle.text = ad?.subtitle ?? model.castingLine
            play.actionName = "win.toggle-play"
            renderPlayButton(play, playing: model.isPlaying)
        }
        let art = model.shownArtworkPath(for: artworkUse)
        if art != renderedArtwork {
            renderedArtwork = art
            if let art { thumb.setFile(art) } else { thumb.setIconName(model.mediaKind.iconName) }
        }
        renderProgress()
    }

    func renderProgress() {
        // The ad clip's progress during a break, the media's otherwise.
        progress.fraction = model.progressFraction(at: .now)
    }
}
