// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// A place that shows a media item's artwork. Each asks for its own image: the image picker
/// weighs the metadata's images against the place's size times the display's scale factor, so a
/// thumbnail does not download the poster and a HiDPI screen does not get blurry art.
public enum ImageUse: String, Hashable, Sendable, CaseIterable {
    /// The small square image in the mini controller (player bar).
    case miniControllerThumbnail
    /// The large image of the expanded controller.
    case expandedControllerBackground
    /// The image of the mini player window.
    case miniPlayer
    /// The session row of the device list (the artwork of what the connected device plays).
    case deviceList
    /// A row of the queue list.
    case queueList
    /// What the desktop shell's media controls and lock screen show (MPRIS `mpris:artUrl`).
    case mediaSession

    /// The size in logical points the place draws the image into.
    public var defaultPointSize: (width: Int, height: Int) {
        switch self {
        case .miniControllerThumbnail: return (48, 48)
        case .expandedControllerBackground: return (640, 640)
        case .miniPlayer: return (64, 64)
        case .deviceList, .queueList: return (40, 40)
        case .mediaSession: return (256, 256)
        }
    }

    /// The width in device pixels at a display scale factor (2 on a HiDPI screen).
    public func pixelWidth(scale: Int) -> Int { defaultPointSize.width * max(1, scale) }

    /// The places that show the current media item: all of them (the queue's current row too;
    /// its other rows ask for their own items).
    public static var currentMediaSurfaces: [ImageUse] { allCases }
}
