import Foundation

/// A JSON message family of one namespace, discriminated by its `type` field.
public protocol CastJSONMessage: Codable, Hashable, Sendable {
    /// The namespace the family travels on.
    static var namespace: CastNamespace { get }
}

/// JSON encoding and decoding of payloads, with errors a person can read.
public enum CastJSON {
    /// Decodes a payload of `namespace` into `T`, or explains what is wrong with it.
    public static func decode<T: Decodable>(_ type: T.Type, from text: String, namespace: String) throws(CastProtocolError) -> T {
        try decode(type, from: Data(text.utf8), namespace: namespace)
    }

    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, namespace: String) throws(CastProtocolError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw .invalidJSON(namespace: namespace, reason: describe(error))
        } catch let error as CastProtocolError {
            throw error
        } catch {
            throw .invalidJSON(namespace: namespace, reason: "\(error)")
        }
    }

    /// Compact JSON with sorted keys and unescaped slashes, so output is stable and URLs stay readable.
    public static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every model here encodes only strings, numbers, booleans, arrays and objects;
        // a non-finite Double is the one value JSON cannot hold, so it is written as null.
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let p = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return p.isEmpty ? "the message" : "“\(p)”"
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = context.codingPath.isEmpty ? "" : " in \(path(context))"
            return "the field “\(key.stringValue)” is missing\(parent)"
        case .typeMismatch(let type, let context):
            if context.codingPath.isEmpty { return "the payload is not a JSON object" }
            return "\(path(context)) is not \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context)) is null where \(typeName(type)) is expected"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return context.underlyingError != nil || context.debugDescription.contains("valid JSON")
                    ? "the payload is not valid JSON" : "the payload is invalid: \(context.debugDescription)"
            }
            return "\(path(context)) is invalid: \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        default:
            String(describing: type).hasPrefix("Dictionary") || String(describing: type).hasPrefix("KeyedDecoding")
                ? "an object" : "a \(type)"
        }
    }
}

/// The discriminator every JSON message carries.
private enum TypeKey: String, CodingKey {
    case type
    case responseType
}

private func readType(_ decoder: any Decoder) throws -> String {
    let c: KeyedDecodingContainer<TypeKey>
    do {
        c = try decoder.container(keyedBy: TypeKey.self)
    } catch {
        throw DecodingError.typeMismatch(
            [String: Any].self, .init(codingPath: [], debugDescription: "the payload is not a JSON object"))
    }
    guard let type = try c.decodeIfPresent(String.self, forKey: .type) else {
        throw DecodingError.keyNotFound(TypeKey.type, .init(codingPath: [], debugDescription: "no type"))
    }
    return type
}

private func write(_ type: String, _ body: some Encodable, to encoder: any Encoder) throws {
    try body.encode(to: encoder)
    var c = encoder.container(keyedBy: TypeKey.self)
    try c.encode(type, forKey: .type)
}

private struct Empty: Codable {}

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

// MARK: - media

extension MediaMessage: CastJSONMessage {
    public static let namespace = CastNamespace.media

    public init(from decoder: any Decoder) throws {
        switch try readType(decoder) {
        case "LOAD": self = .load(try LoadRequest(from: decoder))
        case "PLAY": self = .play(try MediaSessionRequest(from: decoder))
        case "PAUSE": self = .pause(try MediaSessionRequest(from: decoder))
        case "STOP": self = .stop(try MediaSessionRequest(from: decoder))
        case "SEEK": self = .seek(try SeekRequest(from: decoder))
        case "SET_PLAYBACK_RATE": self = .setPlaybackRate(try SetPlaybackRateRequest(from: decoder))
        case "SET_VOLUME": self = .setVolume(try SetVolumeRequest(from: decoder))
        case "EDIT_TRACKS_INFO": self = .editTracksInfo(try EditTracksInfoRequest(from: decoder))
        case "EDIT_AUDIO_TRACKS": self = .editAudioTracks(try EditAudioTracksRequest(from: decoder))
        case "SKIP_AD": self = .skipAd(try MediaSessionRequest(from: decoder))
        case "GET_STATUS": self = .getStatus(try MediaSessionRequest(from: decoder))
        case "QUEUE_LOAD": self = .queueLoad(try QueueLoadRequest(from: decoder))
        case "QUEUE_INSERT": self = .queueInsert(try QueueInsertRequest(from: decoder))
        case "QUEUE_UPDATE": self = .queueUpdate(try QueueUpdateRequest(from: decoder))
        case "QUEUE_REMOVE": self = .queueRemove(try QueueItemsRequest(from: decoder))
        case "QUEUE_REORDER": self = .queueReorder(try QueueItemsRequest(from: decoder))
        case "QUEUE_NEXT": self = .queueNext(try MediaSessionRequest(from: decoder))
        case "QUEUE_PREV": self = .queuePrev(try MediaSessionRequest(from: decoder))
        case "MEDIA_STATUS": self = .mediaStatus(try MediaStatusMessage(from: decoder))
        case "INVALID_PLAYER_STATE": self = .invalidPlayerState(try ErrorReply(from: decoder))
        case "LOAD_FAILED": self = .loadFailed(try ErrorReply(from: decoder))
        case "LOAD_CANCELLED": self = .loadCancelled(try ErrorReply(from: decoder))
        case "INVALID_REQUEST": self = .invalidRequest(try ErrorReply(from: decoder))
        case "ERROR": self = .error(try ErrorReply(from: decoder))
        case let other: self = .unknown(type: other, payload: try JSONValue(from: decoder))
        }
    }

    /// The wire `type` of this message.
    public var type: String {
        switch self {
        case .load: "LOAD"
        case .play: "PLAY"
        case .pause: "PAUSE"
        case .stop: "STOP"
        case .seek: "SEEK"
        case .setPlaybackRate: "SET_PLAYBACK_RATE"
        case .setVolume: "SET_VOLUME"
        case .editTracksInfo: "EDIT_TRACKS_INFO"
        case .editAudioTracks: "EDIT_AUDIO_TRACKS"
        case .skipAd: "SKIP_AD"
        case .getStatus: "GET_STATUS"
        case .queueLoad: "QUEUE_LOAD"
        case .queueInsert: "QUEUE_INSERT"
        case .queueUpdate: "QUEUE_UPDATE"
        case .queueRemove: "QUEUE_REMOVE"
        case .queueReorder: "QUEUE_REORDER"
        case .queueNext: "QUEUE_NEXT"
        case .queuePrev: "QUEUE_PREV"
        case .mediaStatus: "MEDIA_STATUS"
        case .invalidPlayerState: "INVALID_PLAYER_STATE"
        case .loadFailed: "LOAD_FAILED"
        case .loadCancelled: "LOAD_CANCELLED"
        case .invalidRequest: "INVALID_REQUEST"
        case .error: "ERROR"
        case .unknown(let type, _): type
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .load(let m): try write(type, m, to: encoder)
        case .play(let m), .pause(let m), .stop(let m), .skipAd(let m), .getStatus(let m), .queueNext(let m), .queuePrev(let m):
            try write(type, m, to: encoder)
        case .seek(let m): try write(type, m, to: encoder)
        case .setPlaybackRate(let m): try write(type, m, to: encoder)
        case .setVolume(let m): try write(type, m, to: encoder)
        case .editTracksInfo(let m): try write(type, m, to: encoder)
        case .editAudioTracks(let m): try write(type, m, to: encoder)
        case .queueLoad(let m): try write(type, m, to: encoder)
        case .queueInsert(let m): try write(type, m, to: encoder)
        case .queueUpdate(let m): try write(type, m, to: encoder)
        case .queueRemove(let m), .queueReorder(let m): try write(type, m, to: encoder)
        case .mediaStatus(let m): try write(type, m, to: encoder)
        case .invalidPlayerState(let m), .loadFailed(let m), .loadCancelled(let m), .invalidRequest(let m), .error(let m):
            try write(type, m, to: encoder)
        case .unknown(let type, let payload): try write(type, payload, to: encoder)
        }
    }
}

// MARK: - envelopes

/// A received message, decoded according to its namespace.
public enum NamespacedMessage: Hashable, Sendable {
    case connection(ConnectionMessage)
    case heartbeat(HeartbeatMessage)
    case receiver(ReceiverMessage)
    case media(MediaMessage)
    /// Device authentication carries a protobuf `DeviceAuthMessage`.
    case deviceAuth([UInt8])
    /// Multizone and app-defined channels: the payload as it came.
    case custom(namespace: String, payload: CastPayload)
}

extension CastMessage {
    /// A text message carrying one JSON message of a namespace family.
    public init<M: CastJSONMessage>(source: String, destination: String, _ message: M) {
        self.init(source: source, destination: destination, namespace: M.namespace.urn, utf8: CastJSON.encode(message))
    }

    /// Decodes the payload according to the namespace. Google's JSON namespaces must carry
    /// a JSON object with a `type`; anything else is an `invalidJSON` error naming the problem.
    public func decoded() throws(CastProtocolError) -> NamespacedMessage {
        let ns = CastNamespace(urn: namespace)
        func json<M: CastJSONMessage>(_: M.Type) throws(CastProtocolError) -> M {
            guard case .string(let text) = payload else { throw .unexpectedPayloadType(namespace: namespace) }
            return try CastJSON.decode(M.self, from: text, namespace: namespace)
        }
        switch ns {
        case .connection: return .connection(try json(ConnectionMessage.self))
        case .heartbeat: return .heartbeat(try json(HeartbeatMessage.self))
        case .receiver: return .receiver(try json(ReceiverMessage.self))
        case .media: return .media(try json(MediaMessage.self))
        case .deviceAuth:
            guard case .binary(let bytes) = payload else { throw .unexpectedPayloadType(namespace: namespace) }
            return .deviceAuth(bytes)
        case .multizone, .custom: return .custom(namespace: namespace, payload: payload)
        }
    }
}
