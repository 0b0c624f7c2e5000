// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import AppModel
import GtkInterop

/// The expanded controller (expanded-controller.ui): artwork, title, seek bar with ad-break
/// markers, transport, speed, volume, tracks, subtitle style, the ad banner and the chapters
/// (ChaptersView). Buttons are
/// bound to the window's actions in the .ui file, so their enabled state is the action
/// table's; this class renders AppModel into labels, sliders and the banner.
@MainActor
final class ExpandedController {
    static let resource = CastDeckApplication.resourcePath + "/ui/expanded-controller.ui"

    let model: AppModel
    let actions: ModelActions
    let ui: Builder
    let root: Box
    let controls: Box
    let artStack: Stack
    let artOverlay: Widget
    let artPlaceholder: Image
    let artwork: Picture
    let deviceLabel: Label
    let ended: Box
    let endedLabel: Label
    let transport: Box
    let titleLabel: Label
    let subtitleLabel: Label
    let trustMark: Image
    let adBanner: Box
    let adLabel: Label
    let skipButton: Button
    let seek: Scale
    let markers: DrawingArea
    let elapsed: Label
    let remaining: Label
    let playButton: Button
    let previousButton: Button
    let nextButton: Button
    let muteButton: ToggleButton
    let volume: Scale
    let tracksButton: MenuButton
    /// Like and Dislike, shown only when the app on the device takes them.
    let ratingRow: Box
    let styleButton: Button
    let tracks: TracksPopover
    let chapters: ChaptersView
    let volumeControl: VolumeControl
    let queueView: QueueView
    var parent: Window?
    /// True while render() writes into sliders, so their change handlers ignore it.
    var updating = false
    var seekDebounce: UInt32 = 0
    /// True while the pointer holds the seek bar: the target time shows, one seek goes on release.
    var seekDragging = false
    /// The layout last applied (see `layout(width:height:)`).
    var appliedLayout: Layout?
    var renderedArtwork: String?
    lazy var styleEditor = StyleEditor(model: model)

    init(model: AppModel, actions: ModelActions) throws {
        self.model = model
        self.actions = actions
        ui = try Builder(resource: Self.resource)
        root = ui.get("root")
        controls = ui.get("controls")
        artStack = ui.get("art-stack")
        artOverlay = ui.get("art-overlay")
        artPlaceholder = ui.get("art-placeholder")
        artwork = ui.get("artwork")
        deviceLabel = ui.get("device")
        ended = ui.get("ended")
        endedLabel = ui.get("ended-label")
        transport = ui.get("transport")
        titleLabel = ui.get("title")
        subtitleLabel = ui.get("subtitle")
        trustMark = ui.get("trust")
        adBanner = ui.get("ad-banner")
        adLabel = ui.get("ad-label")
        skipButton = ui.get("skip")
        seek = ui.get("seek")
        markers = ui.get("markers")
        elapsed = ui.get("elapsed")
        remaining = ui.get("remaining")
        playButton = ui.get("play")
        previousButton = ui.get("previous")
        nextButton = ui.get("next")
        muteButton = ui.get("mute")
        volume = ui.get("volume")
        tracksButton = ui.get("tracks")
        ratingRow = ui.get("rating-row")
        styleButton = ui.get("style")
        // Times are laid out left to right on their own (no isolate marks in their text, which
        // assistive technology read out); the remaining time keeps to the far end of the row.
        elapsed.keepLeftToRight()
        remaining.keepLeftToRight()
        if Localization.isRightToLeft { remaining.setAlignStart() }
        tracks = try TracksPopover(model: model)
        chapters = try ChaptersView(model: model, actions: actions)
        volumeControl = VolumeControl(model: model, slider: volume, mute: muteButton)
        // The speeds in the UI language's digits and decimal sign ("۰٫۵×" in Persian).
        for (id, rate) in [("rate-half", "0.5"), ("rate-one", "1"), ("rate-two", "2")] {
            // TRANSLATORS: the decimal sign of your language (Persian: ٫).
            let number = Localization.localizeDigits(rate.split(separator: ".").joined(separator: tr(".")))
            Button(unchecked: ui.get(id, as: ToggleButton.self).pointer).label = isolateLTR(number + "×")
        }
        tracksButton.setPopover(tracks.popover)
        queueView = try QueueView(model: model)
        tracks.popover.passQuitShortcut()
        queueView.popover.passQuitShortcut()
        // The Queue button: under the volume row, in the controls column.
        controls.append(queueView.bar)
        chapters.install(column: controls, after: subtitleLabel, transport: transport, afterRow: elapsed.parentWidget)
        connectSignals()
        markers.setDrawFunc { [unowned self] cr, w, h in self.drawMarkers(cr, w, h) }
    }

    func connectSignals() {
        // The seek bar sends one seek: when the pointer lets go after a drag (the time shows the
        // target meanwhile), or once keyboard or assistive-technology changes settle.
        seek.onPointerButton { [unowned self] down in
            if down {
                self.seekDragging = true
                GLibSource.remove(self.seekDebounce)
                self.seekDebounce = 0
            } else if self.seekDragging {
                self.seekDragging = false
                self.sendSeek()
            }
        }
        seek.onValueChanged { [unowned self] in
            guard !self.updating else { return }
            if self.seekDragging {
                self.showSeekTarget()
                return
            }
            GLibSource.remove(self.seekDebounce)
            self.seekDebounce = GLibSource.timeout(ms: 400) { [unowned self] in
                self.seekDebounce = 0
                self.sendSeek()
                return false
            }
            self.showSeekTarget()
        }
        styleButton.onClicked { [unowned self] in self.styleEditor.present(parent: self.parent) }
    }

    private func sendSeek() {
        let target = seek.value
        Task {
            await self.model.perform(.seekTo(target))
            self.render()
        }
    }

    /// While the seek bar is held: the time it would seek to, in place of the elapsed time.
    private func showSeekTarget() {
        if showLiveSeekTarget() { return }  // ExpandedController+Live.swift
        let d = max(model.duration ?? 0, 0)
        elapsed.text = formatTime(seek.value)
        remaining.text = d > 0 ? "\u{2212}" + formatTime(max(0, d - seek.value)) : ""
    }

    // MARK: layout

    /// Narrow (phones, ≤ 560 px): one column, artwork as wide as the window. Medium: one column
    /// up to 560 px wide, artwork sized by the height left for it. Wide (≥ 1000 px): artwork and
    /// controls side by side, the artwork growing with the window.
    enum Layout: Equatable {
        case narrow(art: Int32, controls: Int32)
        case medium(art: Int32, controls: Int32)
        case wide(art: Int32, controls: Int32)
    }

    static func layout(width: Int, height: Int) -> Layout {
        let h = max(height, 400)
        if width >= 1000 {
            // Margins 2 × 24, spacing 36 and some slack for the scroll bar.
            let avail = width - 48 - 36 - 16
            let art = min(avail * 58 / 100, 1100, (h - 160) * 16 / 9)
            return .wide(art: Int32(art), controls: Int32(min(avail - art, 520)))
        }
        let w = max(width - (width <= 560 ? 24 : 36) - 8, 240)
        if width <= 560 {
            return .narrow(art: Int32(min(w, max(h - 520, 120) * 16 / 9).clamped(160, 720)), controls: Int32(w))
        }
        let art = min(w, 640, max(h - 500, 180) * 16 / 9)
        return .medium(art: Int32(art), controls: Int32(min(w, 560)))
    }

    func layout(width: Int, height: Int) {
        let new = Self.layout(width: width, height: height)
        guard new != appliedLayout else { return }
        appliedLayout = new
        // Widths are only asked for where the window is wide enough to give them: on a phone
        // the column fills what there is (asking for the window's own width would hold the
        // window at that width).
        switch new {
        case .narrow(let art, _):
            root.isVertical = true
            root.setMargins(12)
            root.setFillsWidth(true)
            artStack.setSizeRequest(width: -1, height: art * 9 / 16)
            artOverlay.setFillsWidth(true)
            controls.setSizeRequest(width: -1, height: -1)
            artPlaceholder.pixelSize = 64
        case .medium(let art, let column), .wide(let art, let column):
            let wide = if case .wide = new { true } else { false }
            root.isVertical = !wide
            root.setMargins(wide ? 24 : 18)
            root.setFillsWidth(false)
            artOverlay.setFillsWidth(false)
            artStack.setSizeRequest(width: art, height: art * 9 / 16)
            controls.setSizeRequest(width: column, height: -1)
            // A glyph, not a picture: it stops at 96 px however large the artwork area grows.
            artPlaceholder.pixelSize = min(96, max(64, art / 5))
        }
        root.spacing = root.isVertical ? 18 : 36
    }

    // MARK: rendering

    func render() {
        updating = true
        defer { updating = false }
        titleLabel.text = model.title
        subtitleLabel.text = model.subtitle
        subtitleLabel.isVisible = !model.subtitle.isEmpty
        deviceLabel.text = model.sessionDeviceName.map { tr("Casting to {0}", $0) } ?? ""
        TrustMark.render(trustMark, model.trust)
        // The ad clip's poster while it plays (AppModel.shownArtworkPath), else the media's.
        if model.shownArtworkPath(for: .expandedControllerBackground) != renderedArtwork {
            renderedArtwork = model.shownArtworkPath(for: .expandedControllerBackground)
            artwork.setFile(renderedArtwork)
            // The page not shown is hidden too, so assistive technology offers only one image.
            artwork.isVisible = renderedArtwork != nil
            artPlaceholder.isVisible = renderedArtwork == nil
            artStack.visibleChildName = renderedArtwork == nil ? "placeholder" : "artwork"
        }
        artPlaceholder.setIconName(model.mediaKind.iconName)
        previousButton.isVisible = model.hasQueue
        nextButton.isVisible = model.hasQueue
        ratingRow.isVisible = model.offersRating
        RateProbe.shared?.rendered(rateEnabled: model.isEnabled(.setRate), rate: model.selectedRate, actions: actions)
        // Finished or stopped: say so and offer Play Again instead of a transport that cannot work.
        let phase = model.phase
        ended.isVisible = phase.isOver
        transport.isVisible = !phase.isOver
        endedLabel.text = phase.endedText ?? ""
        renderPlayButton(playButton, playing: model.isPlaying)
        // Sliders and the two menu-like buttons are not actions; they follow the same table.
        volumeControl.render()
        tracks.render()
        chapters.render()
        queueView.render()
        tracksButton.isSensitive = model.isEnabled(.selectTextTrack) || model.isEnabled(.burnSubtitles)
        // Lit while subtitles show, as a player's CC button is.
        let subtitlesOn = model.activeTextTrackID != nil
        if subtitlesOn { tracksButton.addCSSClass("subtitles-on") } else { tracksButton.removeCSSClass("subtitles-on") }
        tracksButton.setAccessibleDescription(subtitlesOn ? tr("Subtitles are on") : tr("Subtitles are off"))
        styleButton.isSensitive = model.isEnabled(.applyStyle)
        // A speaker has no screen: no subtitles or their style, only a choice of audio tracks if any.
        tracksButton.isVisible = !model.isAudioOnlyDevice || model.audioTracks.count > 1
        styleButton.isVisible = !model.isAudioOnlyDevice
        renderProgressLocked()
    }

    func renderProgress() {
        updating = true
        defer { updating = false }
        renderProgressLocked()
    }

    private func renderProgressLocked() {
        let d = max(model.duration ?? 0, 0)
        let pos = model.position
        // Unknown duration (live, or not reported): no seek bar position and no remaining time.
        seek.isSensitive = model.isEnabled(.seekTo)
        markers.queueDraw()
        chapters.renderProgress()
        let settled = seekDebounce == 0 && !seekDragging
        // A live stream has its own seek bar and times (ExpandedController+Live.swift).
        if !renderLive(settled: settled), settled {
            seek.setRange(0, d > 0 ? d : 1)
            seek.value = d > 0 ? pos : 0
            elapsed.text = formatTime(pos)
            remaining.text = d > 0 ? "\u{2212}" + formatTime(max(0, d - pos)) : ""
        }

        renderAd()  // ExpandedController+Ads.swift
    }

    /// Break markers over the seek bar's trough: filled for breaks to come, hollow once watched.
    func drawMarkers(_ cr: Cairo, _ w: Double, _ h: Double) {
        guard let d = model.duration, d > 0 else { return }
        let inset = 12.0
        let width = w - 2 * inset
        let rtl = markers.isRightToLeft
        // A file converted on the fly: what the conversion has made, a band under the thumb for
        // each run (a seek starts another).
        for made in model.convertedRanges {
            let x0 = inset + width * max(0, min(1, made.lowerBound / d)), x1 = inset + width * max(0, min(1, made.upperBound / d))
            cr.setColor(RGBA(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.35))
            cr.rectangle(rtl ? w - x1 : x0, h / 2 - 3, x1 - x0, 6)
            cr.fill()
        }
        chapters.drawTicks(cr, width: w, height: h, inset: inset, duration: d, rightToLeft: rtl)
        for m in model.breakMarkers {
            var x = inset + width * min(1, m.position / d)
            if rtl { x = w - x }
            cr.newPath()
            cr.arc(x: x, y: h / 2, radius: 4, from: 0, to: 2 * Double.pi)
            if m.isWatched {
                cr.setColor(RGBA(red: 0.6, green: 0.6, blue: 0.6, alpha: 0.9))
                cr.setLineWidth(1.5)
                cr.stroke()
            } else {
                cr.setColor(RGBA(red: 0.96, green: 0.76, blue: 0.07))
                cr.fill()
            }
        }
    }
}

extension Int {
    func clamped(_ low: Int, _ high: Int) -> Int { Swift.min(Swift.max(self, low), high) }
}
