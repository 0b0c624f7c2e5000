// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// How the messages senders wait for are read when a device or app sends them in a shape other
// than the protocol's (protocol.md §17, "What real devices send"). Each reply keeps its
// `requestId` whatever its body looks like, so the request it answers is matched; what is
// missing is left empty, and the command that needs it says so.

extension MediaStatusMessage {
    private enum Keys: String, CodingKey {
        case requestId, status, customData, mediaSessionId, playerState
    }

    /// `status` is normally an array; an absent or unreadable one reads as "no media session",
    /// and a status sent flat in the message itself (`mediaSessionId`, `playerState` beside
    /// `type`) as the one status it is.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        requestId = try c.decodeIfPresent(Int.self, forKey: .requestId)
        customData = try c.decodeIfPresent(JSONValue.self, forKey: .customData)
        if let list = try c.decodeIfPresent([MediaStatus].self, forKey: .status) {
            status = list
        } else if !c.contains(.status), c.contains(.playerState) || c.contains(.mediaSessionId) {
            do {
                status = [try MediaStatus(from: decoder)]
            } catch {
                DroppedParts.note(error, at: [])
                status = []
            }
        } else {
            status = []
        }
    }
}

extension ReceiverStatusMessage {
    private enum Keys: String, CodingKey {
        case requestId, status
    }

    /// A RECEIVER_STATUS whose `status` is absent or unreadable reads as an empty status.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        requestId = try c.decodeIfPresent(Int.self, forKey: .requestId)
        status = try c.decodeIfPresent(ReceiverStatus.self, forKey: .status) ?? ReceiverStatus()
    }
}

extension ReceiverApplication {
    private enum Keys: String, CodingKey {
        case appId, universalAppId, appType, displayName, iconUrl, isIdleScreen, launchedFromCloud, namespaces, sessionId, statusText, transportId
    }

    /// An app is listed whenever it has an `appId`. Apps started another way than Cast (an old
    /// YouTube launched over DIAL, some Android TV apps) may come without a `sessionId` or
    /// `transportId`: those read as "", which says "cannot be joined" (CastSession.join).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        appId = try c.decode(String.self, forKey: .appId)
        universalAppId = try c.decodeIfPresent(String.self, forKey: .universalAppId)
        appType = try c.decodeIfPresent(String.self, forKey: .appType)
        displayName = try c.decodeIfPresent(String.self, forKey: .displayName)
        iconUrl = try c.decodeIfPresent(String.self, forKey: .iconUrl)
        isIdleScreen = try c.decodeIfPresent(Bool.self, forKey: .isIdleScreen)
        launchedFromCloud = try c.decodeIfPresent(Bool.self, forKey: .launchedFromCloud)
        namespaces = try c.decodeIfPresent([AppNamespace].self, forKey: .namespaces)
        sessionId = try c.decodeIfPresent(String.self, forKey: .sessionId) ?? ""
        statusText = try c.decodeIfPresent(String.self, forKey: .statusText)
        transportId = try c.decodeIfPresent(String.self, forKey: .transportId) ?? ""
    }

    /// Whether a sender can connect to the app at all (it has a transport id).
    public var isJoinable: Bool { !transportId.isEmpty }
}
