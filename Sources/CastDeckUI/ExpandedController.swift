import AppModel
import CastProtocol
import CGtk
import GLibInterop
import GtkInterop

/// The expanded controller: artwork, title, seek bar with ad-break markers, transport, speed,
/// volume, tracks, subtitle style and the ad banner. Everything shown comes from AppModel.
@MainActor
final class ExpandedController {
    let model: AppModel
    let paths: DataPaths
    let root: Widget
    let artwork: Widget
    let titleLabel: Widget
    let subtitleLabel: Widget
    let adBanner: Widget
    let adLabel: Widget
    let skipButton: Widget
    let seek: Widget
    let markers: Widget
    let elapsed: Widget
    let remaining: Widget
    let playButton: Widget
    let back30: Widget
    let forward30: Widget
    let stopButton: Widget
    var rateButtons: [(Double, Widget)] = []
    let rateBox: Widget
    let muteButton: Widget
    let volume: Widget
    let tracksButton: Widget
    let tracksBox: Widget
    let styleButton: Widget
    var onToast: ((String) -> Void)?
    weak var parentWindowRef: AnyObject?
    var parentWindow: Widget?
    var updating = false
    var seekDebounce: guint = 0
    var volumeDebounce: guint = 0
    var renderedTracks: [MediaTrack] = []
    var renderedActive: [Int] = [-1]
    var renderedArtwork: String?
    lazy var styleEditor = StyleEditor(model: model)

    init(model: AppModel, paths: DataPaths) {
        self.model = model
        self.paths = paths
        root = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 12)
        Gtk.margins(root, 18)
        gtk_widget_set_halign(root, GTK_ALIGN_CENTER)
        gtk_widget_set_size_request(root, 340, -1)

        artwork = gtk_picture_new()!
        gtk_picture_set_can_shrink(cast(artwork), 1)
        gtk_picture_set_content_fit(cast(artwork), GTK_CONTENT_FIT_CONTAIN)
        gtk_widget_set_size_request(artwork, 320, 180)
        gtk_widget_add_css_class(artwork, "artwork-large")
        Gtk.setAccessibleName(artwork, tr("Artwork"))

        titleLabel = Gtk.label("", classes: ["title-2"], xalign: 0.5)
        subtitleLabel = Gtk.label("", classes: ["dim-label"], xalign: 0.5)
        gtk_label_set_wrap(cast(titleLabel), 1)

        adBanner = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12, classes: ["ad-banner"])
        adLabel = Gtk.label("", classes: ["heading"])
        gtk_widget_set_hexpand(adLabel, 1)
        skipButton = gtk_button_new_with_label(tr("Skip ad"))!
        Gtk.setAccessibleName(skipButton, tr("Skip ad"))
        gtk_widget_add_css_class(skipButton, "pill")
        Gtk.append(adBanner, adLabel, skipButton)

        seek = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 1, 1)!
        gtk_scale_set_draw_value(cast(seek), 0)
        gtk_widget_set_hexpand(seek, 1)
        Gtk.setAccessibleName(seek, tr("Position"))
        markers = gtk_drawing_area_new()!
        gtk_widget_set_can_target(markers, 0)
        let seekOverlay = gtk_overlay_new()!
        gtk_overlay_set_child(cast(seekOverlay), seek)
        gtk_overlay_add_overlay(cast(seekOverlay), markers)
        elapsed = Gtk.label("0:00", classes: ["time-label", "caption"])
        remaining = Gtk.label("-0:00", classes: ["time-label", "caption"], xalign: 1)
        gtk_widget_set_hexpand(remaining, 1)
        let times = Gtk.box(GTK_ORIENTATION_HORIZONTAL)
        Gtk.append(times, elapsed, remaining)

        back30 = Gtk.iconButton("media-seek-backward-symbolic", name: tr("Seek backward 30 seconds"), classes: ["circular", "flat"])
        playButton = Gtk.iconButton("media-playback-start-symbolic", name: tr("Play"), classes: ["circular", "suggested-action", "large-button"])
        gtk_widget_set_size_request(playButton, 56, 56)
        forward30 = Gtk.iconButton("media-seek-forward-symbolic", name: tr("Seek forward 30 seconds"), classes: ["circular", "flat"])
        stopButton = Gtk.iconButton("media-playback-stop-symbolic", name: tr("Stop casting"), classes: ["circular", "flat"])
        let transport = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 18)
        gtk_widget_set_halign(transport, GTK_ALIGN_CENTER)
        for b in [back30, playButton, forward30, stopButton] { gtk_widget_set_valign(b, GTK_ALIGN_CENTER) }
        Gtk.append(transport, back30, playButton, forward30, stopButton)

        rateBox = Gtk.box(GTK_ORIENTATION_HORIZONTAL, classes: ["linked"])
        gtk_widget_set_halign(rateBox, GTK_ALIGN_CENTER)
        var first: Widget?
        for (rate, label, name) in [(0.5, "0.5×", tr("Playback speed 0.5×")), (1.0, "1×", tr("Playback speed 1×")),
                                    (2.0, "2×", tr("Playback speed 2×"))] {
            let b = gtk_toggle_button_new_with_label(isolateLTR(label))!
            Gtk.setAccessibleName(b, name)
            gtk_widget_set_tooltip_text(b, name)
            if let first { gtk_toggle_button_set_group(cast(b), cast(first)) } else { first = b }
            gtk_box_append(cast(rateBox), b)
            rateButtons.append((rate, b))
        }

        muteButton = gtk_toggle_button_new()!
        gtk_button_set_icon_name(cast(muteButton), "audio-volume-high-symbolic")
        gtk_widget_add_css_class(muteButton, "flat")
        Gtk.setAccessibleName(muteButton, tr("Mute"))
        gtk_widget_set_tooltip_text(muteButton, tr("Mute"))
        volume = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 1, 0.05)!
        gtk_scale_set_draw_value(cast(volume), 0)
        gtk_widget_set_hexpand(volume, 1)
        Gtk.setAccessibleName(volume, tr("Volume"))

        tracksButton = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(cast(tracksButton), "media-view-subtitles-symbolic")
        Gtk.setAccessibleName(tracksButton, tr("Subtitles and audio"))
        gtk_widget_set_tooltip_text(tracksButton, tr("Subtitles and audio"))
        tracksBox = Gtk.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
        Gtk.margins(tracksBox, 6)
        let popover = gtk_popover_new()!
        gtk_popover_set_child(cast(popover), tracksBox)
        gtk_menu_button_set_popover(cast(tracksButton), popover)
        styleButton = Gtk.iconButton("preferences-desktop-font-symbolic", name: tr("Subtitle style"))

        let volumeRow = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
        Gtk.append(volumeRow, muteButton, volume, tracksButton, styleButton)

        Gtk.append(root, artwork, titleLabel, subtitleLabel, adBanner, seekOverlay, times, transport, rateBox, volumeRow)
        connectSignals()
        Drawing.setDrawFunc(markers) { [unowned self] cr, w, h in self.drawMarkers(cr, w, h) }
    }

    func connectSignals() {
        playButton.on("clicked") { [unowned self] in Task { await self.model.togglePlayPause() } }
        back30.on("clicked") { [unowned self] in Task { await self.model.seek(by: -30) } }
        forward30.on("clicked") { [unowned self] in Task { await self.model.seek(by: 30) } }
        stopButton.on("clicked") { [unowned self] in Task { await self.model.stopCasting() } }
        skipButton.on("clicked") { [unowned self] in Task { await self.model.skipAd() } }
        for (rate, b) in rateButtons {
            b.on("toggled") { [unowned self] in
                guard !self.updating, gtk_toggle_button_get_active(cast(b)).isTrue else { return }
                guard rate != self.model.selectedRate else { return }
                Task {
                    await self.model.setRate(rate)
                    self.render()   // a refused change snaps back to what the receiver reports
                }
            }
        }
        muteButton.on("toggled") { [unowned self] in
            guard !self.updating else { return }
            let wanted = gtk_toggle_button_get_active(cast(self.muteButton)).isTrue
            guard wanted != self.model.isMuted else { return }
            Task { await self.model.toggleMute(); self.render() }
        }
        // Slider moves (pointer, keyboard or assistive technology) are sent once they settle.
        seek.on("value-changed") { [unowned self] in
            guard !self.updating else { return }
            GLibSource.remove(self.seekDebounce)
            self.seekDebounce = GLibSource.timeout(ms: 250) { [unowned self] in
                self.seekDebounce = 0
                let target = gtk_range_get_value(cast(self.seek))
                Task { await self.model.seek(to: target); self.render() }
                return false
            }
        }
        volume.on("value-changed") { [unowned self] in
            guard !self.updating else { return }
            GLibSource.remove(self.volumeDebounce)
            self.volumeDebounce = GLibSource.timeout(ms: 150) { [unowned self] in
                self.volumeDebounce = 0
                let level = gtk_range_get_value(cast(self.volume))
                Task { await self.model.setVolume(level) }
                return false
            }
        }
        styleButton.on("clicked") { [unowned self] in self.styleEditor.present(parent: self.parentWindow) }
    }

    // MARK: rendering

    func render() {
        updating = true
        defer { updating = false }
        Gtk.setText(titleLabel, model.title)
        Gtk.setText(subtitleLabel, model.subtitle)
        if model.artworkPath != renderedArtwork {
            renderedArtwork = model.artworkPath
            Picture.setFile(artwork, renderedArtwork)
        }
        let playing = model.isPlaying
        Gtk.setIcon(playButton, playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic")
        let playName = playing ? tr("Pause") : tr("Play")
        Gtk.setAccessibleName(playButton, playName)
        gtk_widget_set_tooltip_text(playButton, playName)
        Gtk.setSensitive(playButton, model.mediaStatus != nil && (model.supports(.pause) || !playing))

        let canSeek = model.supports(.seek) && !model.isPlayingAd
        for w in [seek, back30, forward30] { Gtk.setSensitive(w, canSeek) }

        // Rate: below 1 → 0.5×, above 1 → 2×, exactly 1 → 1×; insensitive without support.
        let selected = model.selectedRate
        let rateSupported = model.supports(.playbackRate)
        for (rate, b) in rateButtons {
            let active = rate == selected
            if gtk_toggle_button_get_active(cast(b)).isTrue != active { gtk_toggle_button_set_active(cast(b), active.gboolean) }
            Gtk.setSensitive(b, rateSupported)
        }

        let muted = model.isMuted
        if gtk_toggle_button_get_active(cast(muteButton)).isTrue != muted { gtk_toggle_button_set_active(cast(muteButton), muted.gboolean) }
        gtk_button_set_icon_name(cast(muteButton), muted ? "audio-volume-muted-symbolic" : "audio-volume-high-symbolic")
        Gtk.setSensitive(muteButton, model.supports(.streamMute))
        Gtk.setSensitive(volume, model.supports(.streamVolume))
        if volumeDebounce == 0, abs(gtk_range_get_value(cast(volume)) - model.volumeLevel) > 0.001 {
            gtk_range_set_value(cast(volume), model.volumeLevel)
        }

        renderTracks()
        Gtk.setSensitive(tracksButton, !(model.textTracks.isEmpty && model.audioTracks.isEmpty))
        Gtk.setSensitive(styleButton, model.supports(.editTracks) || !model.textTracks.isEmpty)
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
        if d > 0 { gtk_range_set_range(cast(seek), 0, d) } else { gtk_range_set_range(cast(seek), 0, 1) }
        if seekDebounce == 0 { gtk_range_set_value(cast(seek), d > 0 ? pos : 0) }
        if d <= 0 { Gtk.setSensitive(seek, false) }
        Gtk.setText(elapsed, isolateLTR(formatTime(pos)))
        Gtk.setText(remaining, d > 0 ? isolateLTR("\u{2212}" + formatTime(max(0, d - pos))) : "")
        gtk_widget_queue_draw(markers)

        if let ad = model.adState {
            Gtk.setVisible(adBanner, true)
            Gtk.setText(adLabel, tr("Ad {0} of {1} · {2}", ad.clipIndex, ad.clipCount, isolateLTR(formatTime(ad.remaining))))
            if let n = ad.skippableIn, n > 0 {
                gtk_button_set_label(cast(skipButton), tr("Skip ad in {0}", Int(n)))
                Gtk.setSensitive(skipButton, false)
                Gtk.setVisible(skipButton, true)
            } else if ad.skippableIn == 0 {
                gtk_button_set_label(cast(skipButton), tr("Skip ad"))
                Gtk.setSensitive(skipButton, true)
                Gtk.setVisible(skipButton, true)
            } else {
                Gtk.setVisible(skipButton, false)
            }
            Gtk.setAccessibleName(skipButton, tr("Skip ad"))
        } else {
            Gtk.setVisible(adBanner, false)
        }
    }

    /// Break markers over the seek bar's trough: filled for breaks to come, hollow once watched.
    func drawMarkers(_ cr: OpaquePointer, _ w: Int32, _ h: Int32) {
        guard let d = model.duration, d > 0 else { return }
        let inset = 12.0
        let width = Double(w) - 2 * inset
        let rtl = gtk_widget_get_direction(markers) == GTK_TEXT_DIR_RTL
        for m in model.breakMarkers {
            var x = inset + width * min(1, m.position / d)
            if rtl { x = Double(w) - x }
            let y = Double(h) / 2
            cairo_new_path(cr)
            cairo_arc(cr, x, y, 4, 0, 2 * Double.pi)
            if m.isWatched {
                cairo_set_source_rgba(cr, 0.6, 0.6, 0.6, 0.9)
                cairo_set_line_width(cr, 1.5)
                cairo_stroke(cr)
            } else {
                cairo_set_source_rgba(cr, 0.96, 0.76, 0.07, 1)
                cairo_fill(cr)
            }
        }
    }

    // MARK: tracks popover

    private func trackButton(_ label: String, _ active: Bool, _ group: Widget?,
                             _ action: @escaping @MainActor () -> Void) -> Widget {
        let b = gtk_toggle_button_new_with_label(label)!
        gtk_widget_add_css_class(b, "flat")
        if let l = gtk_button_get_child(cast(b)) { gtk_label_set_xalign(cast(l), 0) }
        if let group { gtk_toggle_button_set_group(cast(b), cast(group)) }
        gtk_toggle_button_set_active(cast(b), active.gboolean)
        b.on("toggled") { [unowned self] in
            guard !self.updating, gtk_toggle_button_get_active(cast(b)).isTrue else { return }
            action()
        }
        gtk_box_append(cast(tracksBox), b)
        return b
    }

    func renderTracks() {
        let tracks = model.textTracks + model.audioTracks
        let active = model.activeTrackIDs
        guard tracks != renderedTracks || active != renderedActive else { return }
        renderedTracks = tracks
        renderedActive = active
        while let c = gtk_widget_get_first_child(tracksBox) { gtk_box_remove(cast(tracksBox), c) }
        gtk_box_append(cast(tracksBox), Gtk.label(tr("Subtitles"), classes: ["heading"]))
        var group: Widget?
        // Grouped toggle buttons rather than radio check buttons: GTK 4.8 gives check buttons no
        // accessible action, so screen readers could read but not choose them.
        func radio(_ label: String, _ active: Bool, _ action: @escaping @MainActor () -> Void) {
            let b = trackButton(label, active, group, action)
            if group == nil { group = b }
        }
        let activeText = model.activeTextTrackID
        radio(tr("Off"), activeText == nil) { [unowned self] in Task { await self.model.selectTextTrack(nil) } }
        for t in model.textTracks {
            let id = t.trackId
            radio(AppModel.trackLabel(t), activeText == id) { [unowned self] in Task { await self.model.selectTextTrack(id) } }
        }
        if !model.audioTracks.isEmpty {
            gtk_box_append(cast(tracksBox), Gtk.label(tr("Audio"), classes: ["heading"]))
            group = nil
            let activeAudio = model.activeAudioTrackID ?? model.audioTracks.first?.trackId
            for t in model.audioTracks {
                let id = t.trackId
                radio(AppModel.trackLabel(t), activeAudio == id) { [unowned self] in Task { await self.model.selectAudioTrack(id) } }
            }
        }
    }
}

/// Keeps times and "2×" in left-to-right order inside right-to-left text (Unicode isolates).
func isolateLTR(_ s: String) -> String { "\u{2066}" + s + "\u{2069}" }
