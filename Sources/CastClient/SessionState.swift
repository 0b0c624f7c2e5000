// SPDX-License-Identifier: GPL-3.0-or-later
import CastCore
import CastProtocol

/// The app session a `CastSession` is joined to.
public struct SessionInfo: Sendable, Hashable, Codable {
    public var appID: String
    public var displayName: String?
    public var sessionID: String
    public var transportID: String
    public var namespaces: [String]
    public var statusText: String?

    public init(_ app: ReceiverApplication) {
        appID = app.appId
        displayName = app.displayName
        sessionID = app.sessionId
        transportID = app.transportId
        namespaces = app.namespaces?.map(\.name) ?? []
        statusText = app.statusText
    }
}

/// Where a session stands. Observe it with `CastSession.stateUpdates()`.
public enum SessionState: Sendable, Equatable, CustomStringConvertible {
    /// Opening the link to the device.
    case connecting
    /// Linked to the device; joined to an app session when the value is non-nil.
    case connected(SessionInfo?)
    /// The link dropped (or the process restarted) and the session is being rejoined.
    case resuming
    /// Not joined to a session; the reason is nil before the first connection. After
    /// `.sessionEnded` the link to the device stays open (receiver status keeps coming).
    case disconnected(DisconnectReason?)

    public var description: String {
        switch self {
        case .connecting: "connecting"
        case .connected(let info?): "connected to \(info.displayName ?? info.appID) (session \(info.sessionID))"
        case .connected(nil): "connected"
        case .resuming: "resuming"
        case .disconnected(let r?): "disconnected: \(r)"
        case .disconnected(nil): "disconnected"
        }
    }

    public var isConnected: Bool { if case .connected = self { true } else { false } }
}

/// Something the device sent that could not be used; the connection stays up.
public struct CastWarning: Sendable, Equatable, CustomStringConvertible {
    public var namespace: String
    public var problem: CastProtocolError
    public var description: String { problem.description }
}
