import CGtk

@MainActor
public enum Picture {
    /// Shows the image file at `path` in a GtkPicture / GtkImage (nil clears it).
    public static func setFile(_ picture: Widget, _ path: String?) {
        gtk_picture_set_filename(cast(picture), path)
    }
    public static func setImageFile(_ image: Widget, _ path: String?) {
        if let path { gtk_image_set_from_file(cast(image), path) } else { gtk_image_clear(cast(image)) }
    }
}
