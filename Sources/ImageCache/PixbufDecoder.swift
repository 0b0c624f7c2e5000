// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CGdkPixbuf

/// Decodes a downloaded original with gdk-pixbuf, scales it to fit a box and encodes the result as
/// PNG. Runs off the cache actor (each call owns its own GdkPixbuf objects, which is thread-safe).
enum PixbufDecoder {
    struct Scaled {
        var png: [UInt8]
        var width: Int
        var height: Int
    }

    enum Failure: Error {
        /// The header declares more pixels than allowed; nothing was decoded.
        case tooManyPixels(width: Int, height: Int)
        /// Not an image gdk-pixbuf understands, or the data is damaged (e.g. truncated).
        case undecodable(String)
    }

    /// Reads only the header (gdk-pixbuf stops its loader as soon as the size is known).
    static func headerSize(path: String) -> (width: Int, height: Int)? {
        var w: gint = 0
        var h: gint = 0
        guard gdk_pixbuf_get_file_info(path, &w, &h) != nil, w > 0, h > 0 else { return nil }
        return (Int(w), Int(h))
    }

    /// The size that fits `source` inside `box` keeping the aspect ratio, never enlarging.
    static func fittedSize(source: PixelSize, box: PixelSize) -> PixelSize {
        let scale = min(Double(box.width) / Double(source.width), Double(box.height) / Double(source.height), 1)
        return PixelSize(
            width: max(1, Int((Double(source.width) * scale).rounded())),
            height: max(1, Int((Double(source.height) * scale).rounded()))
        )
    }

    /// Decodes `path` scaled to fit `box`, after rejecting images above `maxPixels` from the header.
    static func scaledPNG(path: String, box: PixelSize, maxPixels: Int) throws(Failure) -> Scaled {
        guard let header = headerSize(path: path) else {
            throw .undecodable("unknown image format or damaged header")
        }
        // Decompression-bomb guard: decide from the header, before any pixel memory is allocated.
        if header.width.multipliedReportingOverflow(by: header.height).overflow
            || header.width * header.height > maxPixels
        {
            throw .tooManyPixels(width: header.width, height: header.height)
        }
        let target = fittedSize(source: PixelSize(width: header.width, height: header.height), box: box)

        var error: UnsafeMutablePointer<GError>?
        let loaded: OpaquePointer?
        if target.width == header.width && target.height == header.height {
            loaded = gdk_pixbuf_new_from_file(path, &error)
        } else {
            loaded = gdk_pixbuf_new_from_file_at_scale(path, gint(target.width), gint(target.height), 0, &error)
        }
        guard let decoded = loaded else {
            throw .undecodable(takeMessage(error))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(decoded)) }
        if let error { g_error_free(error) }

        // Honour the EXIF orientation of JPEGs (returns a new reference).
        var pixbuf = decoded
        var oriented: OpaquePointer?
        if let rotated = gdk_pixbuf_apply_embedded_orientation(decoded) {
            oriented = rotated
            pixbuf = rotated
        }
        defer { if let oriented { g_object_unref(UnsafeMutableRawPointer(oriented)) } }

        var buffer: UnsafeMutablePointer<gchar>?
        var length: gsize = 0
        var saveError: UnsafeMutablePointer<GError>?
        guard gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &length, "png", nil, nil, &saveError) != 0,
            let buffer
        else {
            throw .undecodable("PNG encoding failed: " + takeMessage(saveError))
        }
        defer { g_free(buffer) }
        let png = [UInt8](UnsafeRawBufferPointer(start: buffer, count: Int(length)))
        return Scaled(
            png: png,
            width: Int(gdk_pixbuf_get_width(pixbuf)),
            height: Int(gdk_pixbuf_get_height(pixbuf))
        )
    }

    private static func takeMessage(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown gdk-pixbuf error" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown gdk-pixbuf error"
    }
}
