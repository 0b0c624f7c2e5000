// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// Wire coding of the platform namespaces' messages (tp.connection, tp.heartbeat, receiver):
// each `type` string beside its case. The messages themselves are in Platform.swift.

// MARK: - connection

extension ConnectionMessage: CastJSONMessage {
    public static let namespace = CastNamespace.connection

    public init(from decoder: any Decoder) throws {
        switch try readType(decoder) {
        case "CONNECT": self = .connect(try ConnectRequest(from: decoder))
        case "CLOSE": self = .close(try CloseMessage(from: decoder))
        case "CONNECTED": self = .connected(try ConnectedMessage(from: decoder))
        case let other: self = .unknown(type: other, payload: try JSONValue(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .connect(let m): try write("CONNECT", m, to: encoder)
        case .close(let m): try write("CLOSE", m, to: encoder)
        case .connected(let m): try write("CONNECTED", m, to: encoder)
        case .unknown(let type, let payload): try write(type, payload, to: encoder)
        }
    }
}

// MARK: - heartbeat

extension HeartbeatMessage: CastJSONMessage {
    public static let namespace = CastNamespace.heartbeat

    public init(from decoder: any Decoder) throws {
        switch try readType(decoder) {
        case "PING": self = .ping
        case "PONG": self = .pong
        case let other: self = .unknown(type: other, payload: try JSONValue(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .ping: try write("PING", Empty(), to: encoder)
        case .pong: try write("PONG", Empty(), to: encoder)
        case .unknown(let type, let payload): try write(type, payload, to: encoder)
        }
    }
}

// MARK: - receiver

extension ReceiverMessage: CastJSONMessage {
    public static let namespace = CastNamespace.receiver

    public init(from decoder: any Decoder) throws {
        // The GET_APP_AVAILABILITY reply carries `responseType` and no `type`.
        if let c = try? decoder.container(keyedBy: TypeKey.self),
            (try? c.decodeIfPresent(String.self, forKey: .type)) == nil,
            (try? c.decodeIfPresent(String.self, forKey: .responseType)) == "GET_APP_AVAILABILITY"
        {
            self = .appAvailability(try AppAvailabilityResponse(from: decoder))
            return
        }
        switch try readType(decoder) {
        case "GET_STATUS": self = .getStatus(try ReceiverStatusRequest(from: decoder))
        case "LAUNCH": self = .launch(try LaunchRequest(from: decoder))
        case "STOP": self = .stop(try StopSessionRequest(from: decoder))
        case "SET_VOLUME": self = .setVolume(try SetVolumeRequest(from: decoder))
        case "GET_APP_AVAILABILITY": self = .getAppAvailability(try AppAvailabilityRequest(from: decoder))
        case "RECEIVER_STATUS": self = .receiverStatus(try ReceiverStatusMessage(from: decoder))
        case "LAUNCH_ERROR": self = .launchError(try LaunchErrorMessage(from: decoder))
        case "LAUNCH_STATUS": self = .launchStatus(try LaunchStatusMessage(from: decoder))
        case "INVALID_REQUEST": self = .invalidRequest(try ErrorReply(from: decoder))
        case let other: self = .unknown(type: other, payload: try JSONValue(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .getStatus(let m): try write("GET_STATUS", m, to: encoder)
        case .launch(let m): try write("LAUNCH", m, to: encoder)
        case .stop(let m): try write("STOP", m, to: encoder)
        case .setVolume(let m): try write("SET_VOLUME", m, to: encoder)
        case .getAppAvailability(let m): try write("GET_APP_AVAILABILITY", m, to: encoder)
        case .receiverStatus(let m): try write("RECEIVER_STATUS", m, to: encoder)
        case .appAvailability(let m): try m.encode(to: encoder)
        case .launchError(let m): try write("LAUNCH_ERROR", m, to: encoder)
        case .launchStatus(let m): try write("LAUNCH_STATUS", m, to: encoder)
        case .invalidRequest(let m): try write("INVALID_REQUEST", m, to: encoder)
        case .unknown(let type, let payload): try write(type, payload, to: encoder)
        }
    }

    /// The request id the message carries.
    public var requestId: Int? {
        switch self {
        case .getStatus(let m): m.requestId
        case .launch(let m): m.requestId
        case .stop(let m): m.requestId
        case .setVolume(let m): m.requestId
        case .getAppAvailability(let m): m.requestId
        case .receiverStatus(let m): m.requestId
        case .appAvailability(let m): m.requestId
        case .launchError(let m): m.requestId
        case .launchStatus(let m): m.requestId
        case .invalidRequest(let m): m.requestId
        case .unknown(_, let payload): payload["requestId"]?.intValue
        }
    }
}
