// SPDX-License-Identifier: GPL-3.0-or-later
import CastCore
import CastProtocol
import Foundation

/// What is remembered about a session so that a later process can resume it.
public struct RememberedSession: Codable, Sendable, Hashable {
    public var deviceID: String
    public var device: DeviceAddress
    public var appID: String
    public var sessionID: String
    public var savedAt: Date

    public init(deviceID: String, device: DeviceAddress, appID: String, sessionID: String, savedAt: Date = Date()) {
        self.deviceID = deviceID
        self.device = device
        self.appID = appID
        self.sessionID = sessionID
        self.savedAt = savedAt
    }

    private enum CodingKeys: String, CodingKey { case deviceID, device, appID, sessionID, savedAt }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        deviceID = try c.decode(String.self, forKey: .deviceID)
        device = try c.decode(DeviceAddress.self, forKey: .device)
        appID = try c.decode(String.self, forKey: .appID)
        sessionID = try c.decode(String.self, forKey: .sessionID)
        let text = try c.decode(String.self, forKey: .savedAt)
        guard let date = ISO8601DateFormatter().date(from: text) else {
            throw DecodingError.dataCorruptedError(forKey: .savedAt, in: c, debugDescription: "not an ISO 8601 time")
        }
        savedAt = date
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(deviceID, forKey: .deviceID)
        try c.encode(device, forKey: .device)
        try c.encode(appID, forKey: .appID)
        try c.encode(sessionID, forKey: .sessionID)
        try c.encode(ISO8601DateFormatter().string(from: savedAt), forKey: .savedAt)
    }
}

/// A small JSON file of remembered sessions, one per device id:
/// `$XDG_STATE_HOME/castdeck/sessions.json`, or `~/.local/state/castdeck/sessions.json`.
public struct SessionStore: Sendable, Hashable {
    public var fileURL: URL

    public init(fileURL: URL) { self.fileURL = fileURL }

    /// The standard location, or nil when neither XDG_STATE_HOME nor HOME is set.
    public static var standard: SessionStore? {
        guard let directory = XDGDirectory.state.path(environment: ProcessInfo.processInfo.environment) else { return nil }
        return SessionStore(fileURL: URL(fileURLWithPath: directory + "/sessions.json"))
    }

    /// Every remembered session, keyed by device id. A missing or unreadable file is empty.
    // The file is read and written with CastProtocol's JSON coding, not Foundation's
    // JSONEncoder/JSONDecoder: their first use costs a short-lived castctl milliseconds of
    // protocol-conformance lookups. `savedAt` is an ISO 8601 string either way.

    public func all() -> [String: RememberedSession] {
        guard let data = try? Data(contentsOf: fileURL) else { return [:] }
        return (try? CastJSON.decode([String: RememberedSession].self, from: data, namespace: "sessions.json")) ?? [:]
    }

    public func session(forDevice deviceID: String) -> RememberedSession? { all()[deviceID] }

    public func save(_ session: RememberedSession) throws(CastClientError) {
        var sessions = all()
        sessions[session.deviceID] = session
        try write(sessions)
    }

    public func forget(deviceID: String) throws(CastClientError) {
        var sessions = all()
        guard sessions.removeValue(forKey: deviceID) != nil else { return }
        try write(sessions)
    }

    private func write(_ sessions: [String: RememberedSession]) throws(CastClientError) {
        do {
            try FileManager.default.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data((CastJSON.encode(sessions) + "\n").utf8).write(to: fileURL, options: .atomic)
        } catch {
            throw .stateFile(path: fileURL.path, reason: error.localizedDescription)
        }
    }
}
