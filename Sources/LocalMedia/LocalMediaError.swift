// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// What can go wrong when casting a file from this computer. Every message names the
/// file or address and says what to do.
public enum LocalMediaError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file does not exist or cannot be opened.
    case unreadable(path: String, reason: String)
    /// The path names a folder or a device, not a regular file.
    case notAFile(path: String)
    /// The file is media the device cannot play as it is (e.g. Matroska); conversion is a later feature.
    case notPlayable(file: String, what: String)
    /// A subtitle file could not be read or holds no cue at all.
    case subtitleUnusable(path: String, reason: String)
    /// No port of the range (nor any other) could be bound on this address.
    case bindFailed(address: String, ports: String, reason: String)
    /// The address of the Cast connection is not an IP address this machine has.
    case invalidAddress(String)
    /// ffprobe is missing or failed (the cast still works with less metadata).
    case probeFailed(path: String, reason: String)
    /// The file has neither video nor audio.
    case noStreams(file: String)
    /// `--burn-subtitles N` names a subtitle stream the file does not have.
    case burnUnavailable(number: Int, count: Int)
    /// The file must be converted and ffmpeg is missing.
    case converterMissing(file: String)
    /// ffmpeg failed or died while converting.
    case converterFailed(file: String, reason: String)
    /// The scratch folder for converted segments cannot be made or written.
    case scratchUnusable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let p, let r): "Cannot read \(p): \(r)."
        case .notAFile(let p): "\(p) is not a regular file: give a video, audio or image file."
        case .notPlayable(let f, let what): "\(f) is \(what); the device cannot play it directly."
        case .subtitleUnusable(let p, let r): "The subtitle file \(p) cannot be used: \(r)."
        case .bindFailed(let a, let ports, let r):
            "Cannot serve files on \(a) (ports \(ports)): \(r). Choose another port with --media-port, or check that the address is this machine's."
        case .invalidAddress(let a): "“\(a)” is not an IP address of this machine to serve files on."
        case .probeFailed(let p, let r): "Could not read the tags of \(p) with ffprobe: \(r)."
        case .noStreams(let f): "\(f) holds neither video nor audio: there is nothing to cast."
        case .burnUnavailable(let n, let c):
            c == 0 ? "--burn-subtitles \(n): the file has no embedded subtitles." : "--burn-subtitles \(n): the file has subtitle streams 1 to \(c) only."
        case .converterMissing(let f): "\(f) must be converted for the device, and ffmpeg is not installed (Debian: apt install ffmpeg)."
        case .converterFailed(let f, let r): "Converting \(f) for the device failed: \(r)."
        case .scratchUnusable(let p, let r): "Cannot write converted segments to \(p): \(r)."
        }
    }
}
