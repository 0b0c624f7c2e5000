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
    /// When this session was first remembered (saving the same session again keeps it).
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
        guard let date = UTCTimestamp.parse(text) else {
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
        try c.encode(UTCTimestamp.format(savedAt), forKey: .savedAt)
    }

    /// The file's form, read and written without Codable (see SessionStore).
    init?(json: JSONValue) {
        guard let o = json.objectValue, let deviceID = o["deviceID"]?.stringValue,
            let d = o["device"]?.objectValue, let host = d["host"]?.stringValue, let port = d["port"]?.intValue,
            let appID = o["appID"]?.stringValue, let sessionID = o["sessionID"]?.stringValue,
            let text = o["savedAt"]?.stringValue, let savedAt = UTCTimestamp.parse(text)
        else { return nil }
        self.init(deviceID: deviceID, device: DeviceAddress(host: host, port: port), appID: appID, sessionID: sessionID, savedAt: savedAt)
    }

    var json: JSONValue {
        .object([
            "deviceID": .string(deviceID), "appID": .string(appID), "sessionID": .string(sessionID),
            "device": .object(["host": .string(device.host), "port": .int(Int64(device.port))]),
            "savedAt": .string(UTCTimestamp.format(savedAt)),
        ])
    }
}

/// ISO 8601 times in UTC to the second ("2026-11-23T04:04:47Z", what ISO8601DateFormatter
/// writes by default), formatted and read by hand: the formatter loads ICU, which was a tenth
/// of a `castctl status` process (issue 16). Other ISO 8601 forms still read through it.
enum UTCTimestamp {
    static func format(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var tm = tm()
        guard gmtime_r(&t, &tm) != nil else { return ISO8601DateFormatter().string(from: date) }
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let year = String(Int(tm.tm_year) + 1900)
        let paddedYear = String(repeating: "0", count: max(0, 4 - year.count)) + year
        return "\(paddedYear)-\(two(tm.tm_mon + 1))-\(two(tm.tm_mday))T\(two(tm.tm_hour)):\(two(tm.tm_min)):\(two(tm.tm_sec))Z"
    }

    static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        // yyyy-MM-ddTHH:mm:ssZ
        guard b.count == 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
            b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"), b[19] == UInt8(ascii: "Z")
        else {
            return ISO8601DateFormatter().date(from: text)
        }
        func number(_ range: Range<Int>) -> Int32? {
            var n: Int32 = 0
            for i in range {
                guard b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") else { return nil }
                n = n * 10 + Int32(b[i] - UInt8(ascii: "0"))
            }
            return n
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var tm = tm()
        tm.tm_year = year - 1900
        tm.tm_mon = month - 1
        tm.tm_mday = day
        tm.tm_hour = hour
        tm.tm_min = minute
        tm.tm_sec = second
        let t = timegm(&tm)
        // timegm normalises 31 February into March: such a day is not a time.
        guard tm.tm_mday == day, tm.tm_mon == month - 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(t))
    }
}

/// A small JSON file of remembered sessions, one per device id:
/// `$XDG_STATE_HOME/castdeck/sessions.json`, or `~/.local/state/castdeck/sessions.json`.
public struct SessionStore: Sendable, Hashable {
    /// The file's path. Kept as text: every castctl command reads the file, and spelling out
    /// a URL's path the first time costs a short process a scan of the binary's conformance
    /// records.
    public var path: String

    public var fileURL: URL { URL(fileURLWithPath: path) }

    public init(path: String) { self.path = path }

    public init(fileURL: URL) { self.path = fileURL.path }

    /// The standard location, or nil when neither XDG_STATE_HOME nor HOME is set.
    public static var standard: SessionStore? {
        guard let directory = XDGDirectory.state.path() else { return nil }
        return SessionStore(path: directory + "/sessions.json")
    }

    /// Every remembered session, keyed by device id. A missing or unreadable file is empty.
    // The file is read as a JSON tree and written from one, not through Codable: generic
    // Codable code costs a short-lived castctl milliseconds of protocol-conformance lookups
    // on first use (a profile of `castctl status` put Codable and ISO8601DateFormatter at a
    // fifth of its work). The file is the same as Foundation's JSONEncoder wrote. An entry
    // that does not read is left out; the others stay (through Codable one bad entry lost all).
    public func all() -> [String: RememberedSession] {
        guard let data = try? readFileBytes(atPath: path), let tree = try? JSONValue(parsing: data),
            let entries = tree.objectValue
        else { return [:] }
        return entries.dictionary.compactMapValues(RememberedSession.init(json:))
    }

    public func session(forDevice deviceID: String) -> RememberedSession? { all()[deviceID] }

    /// Remembers `session` for its device. Saving the session the file already holds for that
    /// device (same address, app and session id) writes nothing: every `castctl` command that
    /// joins a session saves it, and an atomic rewrite with its fsync cost each of them about
    /// a millisecond for no change.
    public func save(_ session: RememberedSession) throws(CastClientError) {
        var sessions = all()
        if let old = sessions[session.deviceID], old.device == session.device, old.appID == session.appID,
            old.sessionID == session.sessionID
        {
            return
        }
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
            let tree = JSONValue.object(JSONObject(sessions.mapValues(\.json)))
            try Data((CastJSON.encode(tree) + "\n").utf8).write(to: fileURL, options: .atomic)
        } catch {
            throw .stateFile(path: path, reason: error.localizedDescription)
        }
    }
}
