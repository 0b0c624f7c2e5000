import AppModel
import GtkInterop

/// The expanded controller (expanded-controller.ui): artwork, title, seek bar with ad-break
/// markers, transport, speed, volume, tracks, subtitle style and the ad banner. Buttons are
/// bound to the window's actions in the .ui file, so their enabled state is the action
/// table's; this class renders AppModel into labels, sliders and the banner.
@MainActor
final class ExpandedController {
    static let resource = CastDeckApplication.resourcePath + "/ui/expanded-controller.ui"

    let model: AppModel
    let actions: ModelActions
    let ui: Builder
    let root: Box
    let artwork: Picture
    let titleLabel: Label
    let subtitleLabel: Label
    let trustLabel: Label
    let adBanner: Box
    let adLabel: Label
    let skipButton: Button
    let seek: Scale
    let markers: DrawingArea
    let elapsed: Label
    let remaining: Label
    let playButton: Button
    let muteButton: ToggleButton
    let volume: Scale
    let tracksButton: MenuButton
    let styleButton: Button
    let tracks: TracksPopover
    let queueView: QueueView
    var parent: Window?
    /// True while render() writes into sliders, so their change handlers ignore it.
    var updating = false
    var seekDebounce: UInt32 = 0
    var volumeDebounce: UInt32 = 0
    var renderedArtwork: String?
    lazy var styleEditor = StyleEditor(model: model)

    init(model: AppModel, actions: ModelActions) throws {
        self.model = model
        self.actions = actions
        ui = try Builder(resource: Self.resource)
        root = ui.get("root")
        artwork = ui.get("artwork")
        titleLabel = ui.get("title")
        subtitleLabel = ui.get("subtitle")
        trustLabel = ui.get("trust")
        adBanner = ui.get("ad-banner")
        adLabel = ui.get("ad-label")
        skipButton = ui.get("skip")
        seek = ui.get("seek")
        markers = ui.get("markers")
        elapsed = ui.get("elapsed")
        remaining = ui.get("remaining")
        playButton = ui.get("play")
        muteButton = ui.get("mute")
        volume = ui.get("volume")
        tracksButton = ui.get("tracks")
        styleButton = ui.get("style")
        tracks = try TracksPopover(model: model)
        tracksButton.setPopover(tracks.popover)
        queueView = try QueueView(model: model)
        root.append(queueView.bar)
        connectSignals()
        markers.setDrawFunc { [unowned self] cr, w, h in self.drawMarkers(cr, w, h) }
    }

    func connectSignals() {
        // Slider moves (pointer, keyboard or assistive technology) are sent once they settle.
        seek.onValueChanged { [unowned self] in
            guard !self.updating else { return }
            GLibSource.remove(self.seekDebounce)
            self.seekDebounce = GLibSource.timeout(ms: 250) { [unowned self] in
                self.seekDebounce = 0
                let target = self.seek.value
                Task { await self.model.perform(.seekTo(target)); self.render() }
                return false
            }
        }
        volume.onValueChanged { [unowned self] in
            guard !self.updating else { return }
            GLibSource.remove(self.volumeDebounce)
            self.volumeDebounce = GLibSource.timeout(ms: 150) { [unowned self] in
                self.volumeDebounce = 0
                let level = self.volume.value
                Task { await self.model.perform(.setVolume(level)) }
                return false
            }
        }
        styleButton.onClicked { [unowned self] in self.styleEditor.present(parent: self.parent) }
    }

    // MARK: rendering

    func render() {
        updating = true
        defer { updating = false }
        titleLabel.text = model.title
        subtitleLabel.text = model.subtitle
        TrustMark.render(trustLabel, model.trust)
        if model.artworkPath != renderedArtwork {
            renderedArtwork = model.artworkPath
            artwork.setFile(renderedArtwork)
        }
        renderPlayButton(playButton, playing: model.isPlaying)
        muteButton.iconName = model.isMuted ? "audio-volume-muted-symbolic" : "audio-volume-high-symbolic"
        // Sliders and the two menu-like buttons are not actions; they follow the same table.
        volume.isSensitive = model.isEnabled(.setVolume)
        if volumeDebounce == 0, abs(volume.value - model.volumeLevel) > 0.001 { volume.value = model.volumeLevel }
        tracks.render()
        queueView.render()
        tracksButton.isSensitive = model.isEnabled(.selectTextTrack)
        styleButton.isSensitive = model.isEnabled(.applyStyle)
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
        seek.setRange(0, d > 0 ? d : 1)
        if seekDebounce == 0 { seek.value = d > 0 ? pos : 0 }
        seek.isSensitive = model.isEnabled(.seekTo)
        elapsed.text = isolateLTR(formatTime(pos))
        remaining.text = d > 0 ? isolateLTR("\u{2212}" + formatTime(max(0, d - pos))) : ""
        markers.queueDraw()

        if let ad = model.adState {
            adBanner.isVisible = true
            adLabel.text = tr("Ad {0} of {1} · {2}", ad.clipIndex, ad.clipCount, isolateLTR(formatTime(ad.remaining)))
            if let n = ad.skippableIn {
                skipButton.label = n > 0 ? tr("Skip ad in {0}", Int(n)) : tr("Skip ad")
                skipButton.isVisible = true
            } else {
                skipButton.isVisible = false
            }
            skipButton.setAccessibleName(tr("Skip ad"))
        } else {
            adBanner.isVisible = false
        }
    }

    /// Break markers over the seek bar's trough: filled for breaks to come, hollow once watched.
    func drawMarkers(_ cr: Cairo, _ w: Double, _ h: Double) {
        guard let d = model.duration, d > 0 else { return }
        let inset = 12.0
        let width = w - 2 * inset
        let rtl = markers.isRightToLeft
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
