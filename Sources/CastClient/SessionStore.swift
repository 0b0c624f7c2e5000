// SPDX-License-Identifier: GPL-3.0-or-later
import CastCore
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
    public func all() -> [String: RememberedSession] {
        guard let data = try? Data(contentsOf: fileURL) else { return [:] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return (try? decoder.decode([String: RememberedSession].self, from: data)) ?? [:]
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        do {
            try FileManager.default.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try encoder.encode(sessions).write(to: fileURL, options: .atomic)
        } catch {
            throw .stateFile(path: fileURL.path, reason: error.localizedDescription)
        }
    }
}
