import AppModel
import CGtk
import GLibInterop
import GtkInterop

/// The bar at the bottom while a session has media: thumbnail, title, play/pause, stop, progress.
@MainActor
final class MiniController {
    let model: AppModel
    let root: Widget
    let thumb: Widget
    let titleLabel: Widget
    let subtitleLabel: Widget
    let playButton: Widget
    let stopButton: Widget
    let progress: Widget
    var onOpen: (() -> Void)?
    var artwork: String?

    init(model: AppModel) {
        self.model = model
        root = Gtk.box(GTK_ORIENTATION_VERTICAL, classes: ["mini-controller"])
        progress = gtk_progress_bar_new()!
        gtk_widget_add_css_class(progress, "mini-progress")
        Gtk.setAccessibleName(progress, tr("Progress"))
        let row = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        gtk_widget_set_margin_top(row, 6)
        thumb = gtk_image_new()!
        gtk_image_set_pixel_size(cast(thumb), 48)
        gtk_widget_add_css_class(thumb, "artwork-thumb")
        let texts = Gtk.box(GTK_ORIENTATION_VERTICAL)
        gtk_widget_set_valign(texts, GTK_ALIGN_CENTER)
        gtk_widget_set_hexpand(texts, 1)
        titleLabel = Gtk.label("", classes: ["heading"])
        subtitleLabel = Gtk.label("", classes: ["dim-label", "caption"])
        gtk_label_set_ellipsize(cast(titleLabel), PANGO_ELLIPSIZE_END)
        gtk_label_set_ellipsize(cast(subtitleLabel), PANGO_ELLIPSIZE_END)
        Gtk.append(texts, titleLabel, subtitleLabel)
        // The text area opens the expanded controller.
        let open = gtk_button_new()!
        gtk_widget_add_css_class(open, "flat")
        gtk_widget_set_hexpand(open, 1)
        let openBox = Gtk.box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        Gtk.append(openBox, thumb, texts)
        gtk_button_set_child(cast(open), openBox)
        Gtk.setAccessibleName(open, tr("Open expanded controller"))
        playButton = Gtk.iconButton("media-playback-start-symbolic", name: tr("Play"), classes: ["circular", "flat"])
        stopButton = Gtk.iconButton("media-playback-stop-symbolic", name: tr("Stop casting"), classes: ["circular", "flat"])
        gtk_widget_set_valign(playButton, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(stopButton, GTK_ALIGN_CENTER)
        Gtk.append(row, open, playButton, stopButton)
        Gtk.append(root, progress, row)
        open.on("clicked") { [unowned self] in self.onOpen?() }
        playButton.on("clicked") { [unowned self] in Task { await self.model.togglePlayPause() } }
        stopButton.on("clicked") { [unowned self] in Task { await self.model.stopCasting() } }
    }

    func render() {
        Gtk.setText(titleLabel, model.title)
        Gtk.setText(subtitleLabel, model.subtitle)
        let playing = model.isPlaying
        Gtk.setIcon(playButton, playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic")
        let name = playing ? tr("Pause") : tr("Play")
        Gtk.setAccessibleName(playButton, name)
        gtk_widget_set_tooltip_text(playButton, name)
        Gtk.setSensitive(playButton, model.supports(.pause) || !playing)
        if model.artworkPath != artwork {
            artwork = model.artworkPath
            if let a = artwork { gtk_image_set_from_file(cast(thumb), a) }
            else { gtk_image_set_from_icon_name(cast(thumb), "video-x-generic-symbolic") }
        }
        renderProgress()
    }

    func renderProgress() {
        let d = model.duration ?? 0
        let fraction = d > 0 ? model.position / d : 0
        gtk_progress_bar_set_fraction(cast(progress), min(1, max(0, fraction)))
    }
}
