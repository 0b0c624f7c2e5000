// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import ScreenCapture

/// What a mirroring session sends: a picture (the screen or a window), with or without the
/// desktop's sound, or the sound alone (for speakers, and for listening on a TV).
public enum MirrorMedia: Sendable, Equatable, CustomStringConvertible {
    case screen(CaptureSource, sound: Bool)
    /// The desktop's sound alone: the monitor of the default output.
    case sound

    /// The receiver app that plays it: Chrome's mirroring app, or its audio-only sibling.
    public var appID: String {
        switch self {
        case .screen: CastStreamingIDs.mirroringApp
        case .sound: CastStreamingIDs.audioMirroringApp
        }
    }

    /// The picture's source, if any.
    public var source: CaptureSource? {
        if case .screen(let s, _) = self { return s }
        return nil
    }

    /// Whether the desktop's sound goes along.
    public var hasSound: Bool {
        switch self {
        case .screen(_, let sound): sound
        case .sound: true
        }
    }

    public var description: String {
        switch self {
        case .screen(let s, let sound): sound ? "\(s) with its sound" : "\(s)"
        case .sound: "the desktop's sound"
        }
    }
}
