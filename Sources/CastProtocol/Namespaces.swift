// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
/// The namespaces of the Cast protocol, plus any app-defined `urn:x-cast:` channel.
public enum CastNamespace: Hashable, Sendable, CustomStringConvertible {
    case connection
    case heartbeat
    case deviceAuth
    case receiver
    case media
    case multizone
    case custom(String)

    public static let connectionURN = "urn:x-cast:com.google.cast.tp.connection"
    public static let heartbeatURN = "urn:x-cast:com.google.cast.tp.heartbeat"
    public static let deviceAuthURN = "urn:x-cast:com.google.cast.tp.deviceauth"
    public static let receiverURN = "urn:x-cast:com.google.cast.receiver"
    public static let mediaURN = "urn:x-cast:com.google.cast.media"
    public static let multizoneURN = "urn:x-cast:com.google.cast.multizone"
    /// Cast Streaming's OFFER and ANSWER (screen mirroring, docs/mirroring.md).
    public static let webrtcURN = "urn:x-cast:com.google.cast.webrtc"
    /// The prefix every namespace carries.
    public static let prefix = "urn:x-cast:"
    /// The longest namespace senders accept (the Android Cast SDK's limit).
    public static let maxLength = 128

    public init(urn: String) {
        switch urn {
        case Self.connectionURN: self = .connection
        case Self.heartbeatURN: self = .heartbeat
        case Self.deviceAuthURN: self = .deviceAuth
        case Self.receiverURN: self = .receiver
        case Self.mediaURN: self = .media
        case Self.multizoneURN: self = .multizone
        default: self = .custom(urn)
        }
    }

    /// A namespace for an app-defined channel, validated: `urn:x-cast:` followed by a name,
    /// at most 128 characters.
    public static func validatedCustom(_ urn: String) throws(CastProtocolError) -> CastNamespace {
        guard urn.hasPrefix(prefix), urn.count > prefix.count, urn.count <= maxLength,
            !urn.contains(where: { $0.isWhitespace })
        else { throw .invalidNamespace(urn) }
        return CastNamespace(urn: urn)
    }

    public var urn: String {
        switch self {
        case .connection: Self.connectionURN
        case .heartbeat: Self.heartbeatURN
        case .deviceAuth: Self.deviceAuthURN
        case .receiver: Self.receiverURN
        case .media: Self.mediaURN
        case .multizone: Self.multizoneURN
        case .custom(let urn): urn
        }
    }

    /// Transport namespaces need no virtual connection.
    public var isTransport: Bool {
        switch self {
        case .connection, .heartbeat, .deviceAuth: true
        default: false
        }
    }

    public var description: String { urn }
}

/// Endpoint ids and app ids every Cast peer knows.
public enum CastEndpoint {
    /// The receiver platform.
    public static let receiver = "receiver-0"
    /// The sender platform (heartbeat, device auth).
    public static let sender = "sender-0"
    /// Destination of receiver broadcasts.
    public static let broadcast = "*"
}

public enum CastAppID {
    /// Google's Default Media Receiver.
    public static let defaultMediaReceiver = "CC1AD845"
    /// The idle screen app.
    public static let backdrop = "E8C28D3C"
    /// What speakers (Google Home, Nest Audio) report running when the Default Media Receiver
    /// is launched on them: the audio-only receiver, named "Default Media Receiver" too
    /// (Tests/Fixtures/real-devices/receiver/speaker-dmr-705d30c6*.json; Chromium calls the same
    /// id MultizoneFollower).
    public static let audioDefaultMediaReceiver = "705D30C6"

    /// Whether `running` is what a LAUNCH of `requested` starts: the app itself, or on a
    /// speaker the audio-only Default Media Receiver for the Default Media Receiver.
    public static func launched(_ requested: String, runs running: ReceiverApplication) -> Bool {
        let want = requested.uppercased(), id = running.appId.uppercased()
        return id == want || running.universalAppId?.uppercased() == want
            || (want == defaultMediaReceiver && id == audioDefaultMediaReceiver)
    }
}
