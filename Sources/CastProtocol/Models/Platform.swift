// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// The platform namespaces: tp.connection, tp.heartbeat and receiver.

// MARK: - tp.connection

/// What a sender says about itself in CONNECT (Chrome's `senderInfo`).
public struct SenderInfo: Codable, Hashable, Sendable {
    public var sdkType: Int?
    public var version: String?
    public var browserVersion: String?
    /// 0 other, 3 Windows, 4 macOS, 5 ChromeOS, 6 Linux.
    public var platform: Int?
    /// 1 = local connection.
    public var connectionType: Int?
    public var systemVersion: String?

    public init(
        sdkType: Int? = 2, version: String? = nil, browserVersion: String? = nil, platform: Int? = 6, connectionType: Int? = 1, systemVersion: String? = nil
    ) {
        self.sdkType = sdkType
        self.version = version
        self.browserVersion = browserVersion
        self.platform = platform
        self.connectionType = connectionType
        self.systemVersion = systemVersion
    }
}

/// CONNECT: opens a virtual connection to `receiver-0` or an app's transport id.
public struct ConnectRequest: Codable, Hashable, Sendable {
    public var userAgent: String?
    /// 0 strong (default), 1 weak, 2 invisible.
    public var connType: Int?
    public var origin: JSONValue?
    public var senderInfo: SenderInfo?
    public var protocolVersion: Int?
    public var protocolVersionList: [Int]?

    public init(
        userAgent: String? = nil, connType: Int? = nil, origin: JSONValue? = [:], senderInfo: SenderInfo? = nil, protocolVersion: Int? = nil,
        protocolVersionList: [Int]? = nil
    ) {
        self.userAgent = userAgent
        self.connType = connType
        self.origin = origin
        self.senderInfo = senderInfo
        self.protocolVersion = protocolVersion
        self.protocolVersionList = protocolVersionList
    }
}

/// CLOSE: ends a virtual connection (either side). `reasonCode` is informational.
public struct CloseMessage: Codable, Hashable, Sendable {
    public var reasonCode: Int?
    public var origin: JSONValue?
    public init(reasonCode: Int? = nil, origin: JSONValue? = nil) {
        self.reasonCode = reasonCode
        self.origin = origin
    }
}

/// CONNECTED: the receiver's answer to a CONNECT that named protocol versions.
public struct ConnectedMessage: Codable, Hashable, Sendable {
    public var protocolVersion: Int?
    public init(protocolVersion: Int? = nil) { self.protocolVersion = protocolVersion }
}

/// One message of the connection namespace. CONNECT's payload (~175 bytes) is boxed, as the
/// large media requests are (`MediaMessage`), so that every `NamespacedMessage` is not that large.
public enum ConnectionMessage: Hashable, Sendable {
    indirect case connect(ConnectRequest)
    case close(CloseMessage)
    case connected(ConnectedMessage)
    case unknown(type: String, payload: JSONValue)
}

// MARK: - tp.heartbeat

public enum HeartbeatMessage: Hashable, Sendable {
    case ping
    case pong
    case unknown(type: String, payload: JSONValue)
}

// MARK: - receiver

/// GET_STATUS on the receiver namespace.
public struct ReceiverStatusRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public init(requestId: Int) { self.requestId = requestId }
}

/// LAUNCH: start a receiver app.
public struct LaunchRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public var appId: String
    public var language: String?
    public var supportedAppTypes: [String]?
    public var appParams: JSONValue?
    public init(requestId: Int, appId: String, language: String? = nil, supportedAppTypes: [String]? = nil, appParams: JSONValue? = nil) {
        self.requestId = requestId
        self.appId = appId
        self.language = language
        self.supportedAppTypes = supportedAppTypes
        self.appParams = appParams
    }
}

/// STOP on the receiver namespace: stop an app session (all, when `sessionId` is absent).
public struct StopSessionRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public var sessionId: String?
    public init(requestId: Int, sessionId: String? = nil) {
        self.requestId = requestId
        self.sessionId = sessionId
    }
}

/// SET_VOLUME on either namespace. On media it names the session.
public struct SetVolumeRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public var mediaSessionId: Int?
    public var volume: Volume
    public var customData: JSONValue?
    public init(requestId: Int, mediaSessionId: Int? = nil, volume: Volume, customData: JSONValue? = nil) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.volume = volume
        self.customData = customData
    }
}

/// GET_APP_AVAILABILITY: which of these apps the device can run.
public struct AppAvailabilityRequest: Codable, Hashable, Sendable {
    public var requestId: Int
    public var appId: [String]
    public init(requestId: Int, appId: [String]) {
        self.requestId = requestId
        self.appId = appId
    }
}

/// The reply to GET_APP_AVAILABILITY. It carries `responseType`, not `type`.
public struct AppAvailabilityResponse: Codable, Hashable, Sendable {
    public var requestId: Int?
    public var responseType: String?
    /// appId → `APP_AVAILABLE` or `APP_UNAVAILABLE`.
    public var availability: [String: String]
    public init(requestId: Int?, availability: [String: String]) {
        self.requestId = requestId
        self.responseType = "GET_APP_AVAILABILITY"
        self.availability = availability
    }
}

/// A namespace a running app listens on. Written as `{"name": …}`; old receivers send bare strings.
public struct AppNamespace: Codable, Hashable, Sendable {
    public var name: String
    public init(name: String) { self.name = name }

    public init(from decoder: any Decoder) throws {
        if let s = try? decoder.singleValueContainer().decode(String.self) {
            name = s
        } else {
            enum K: String, CodingKey { case name }
            name = try decoder.container(keyedBy: K.self).decode(String.self, forKey: .name)
        }
    }
}

/// A running receiver app.
public struct ReceiverApplication: Codable, Hashable, Sendable {
    public var appId: String
    public var universalAppId: String?
    /// "WEB" for a Web Receiver app, "ANDROID_TV" for an Android TV app reached through Cast
    /// Connect (Chromecast with Google TV, TVs running Google TV); absent on older firmware.
    public var appType: String?
    public var displayName: String?
    public var iconUrl: String?
    public var isIdleScreen: Bool?
    public var launchedFromCloud: Bool?
    public var namespaces: [AppNamespace]?
    public var sessionId: String
    public var statusText: String?
    /// Destination id for media and custom messages; CONNECT to it first.
    public var transportId: String

    public init(
        appId: String, displayName: String? = nil, namespaces: [String] = [], sessionId: String, statusText: String? = nil, transportId: String,
        isIdleScreen: Bool? = false, iconUrl: String = "", appType: String? = nil, universalAppId: String? = nil
    ) {
        self.appId = appId
        self.universalAppId = universalAppId ?? appId
        self.appType = appType
        self.displayName = displayName
        self.iconUrl = iconUrl
        self.isIdleScreen = isIdleScreen
        self.launchedFromCloud = false
        self.namespaces = namespaces.map(AppNamespace.init(name:))
        self.sessionId = sessionId
        self.statusText = statusText
        self.transportId = transportId
    }

    public func handles(_ namespace: String) -> Bool {
        namespaces?.contains { $0.name == namespace } ?? false
    }
}

/// The receiver platform's state: running apps and device volume.
public struct ReceiverStatus: Codable, Hashable, Sendable {
    public var applications: [ReceiverApplication]?
    public var isActiveInput: Bool?
    public var isStandBy: Bool?
    public var volume: Volume?
    public var userEq: JSONValue?

    public init(applications: [ReceiverApplication]? = nil, isActiveInput: Bool? = nil, isStandBy: Bool? = nil, volume: Volume? = nil, userEq: JSONValue? = nil)
    {
        self.applications = applications
        self.isActiveInput = isActiveInput
        self.isStandBy = isStandBy
        self.volume = volume
        self.userEq = userEq
    }

    /// The app in the foreground (clients use element 0).
    public var runningApp: ReceiverApplication? { applications?.first }
}

/// RECEIVER_STATUS. `requestId` 0 (or absent) marks a broadcast.
public struct ReceiverStatusMessage: Codable, Hashable, Sendable {
    public var requestId: Int?
    public var status: ReceiverStatus
    public init(requestId: Int?, status: ReceiverStatus) {
        self.requestId = requestId
        self.status = status
    }
}

/// LAUNCH_ERROR. Open Screen and pychromecast read `reason`, Chromium `error`/`extendedError`.
public struct LaunchErrorMessage: Codable, Hashable, Sendable {
    public var requestId: Int?
    public var reason: LaunchErrorReason?
    public var error: String?
    public var extendedError: String?
    public init(requestId: Int?, reason: LaunchErrorReason?, error: String? = nil, extendedError: String? = nil) {
        self.requestId = requestId
        self.reason = reason
        self.error = error
        self.extendedError = extendedError
    }
}

/// LAUNCH_STATUS: a device waiting for the user to allow a launch.
public struct LaunchStatusMessage: Codable, Hashable, Sendable {
    public var requestId: Int?
    public var status: String?
    public init(requestId: Int?, status: String?) {
        self.requestId = requestId
        self.status = status
    }
}

/// An error reply: INVALID_REQUEST on both namespaces; on media also INVALID_PLAYER_STATE,
/// LOAD_FAILED, LOAD_CANCELLED and ERROR.
public struct ErrorReply: Codable, Hashable, Sendable {
    public var requestId: Int?
    public var reason: ErrorReason?
    public var detailedErrorCode: Int?
    public var itemId: Int?
    public var customData: JSONValue?
    public init(requestId: Int?, reason: ErrorReason? = nil, detailedErrorCode: Int? = nil, itemId: Int? = nil, customData: JSONValue? = nil) {
        self.requestId = requestId
        self.reason = reason
        self.detailedErrorCode = detailedErrorCode
        self.itemId = itemId
        self.customData = customData
    }
}

public enum ReceiverMessage: Hashable, Sendable {
    case getStatus(ReceiverStatusRequest)
    case launch(LaunchRequest)
    case stop(StopSessionRequest)
    case setVolume(SetVolumeRequest)
    case getAppAvailability(AppAvailabilityRequest)
    case receiverStatus(ReceiverStatusMessage)
    case appAvailability(AppAvailabilityResponse)
    case launchError(LaunchErrorMessage)
    case launchStatus(LaunchStatusMessage)
    case invalidRequest(ErrorReply)
    case unknown(type: String, payload: JSONValue)
}

// Wire coding: each `type` string beside its case.
