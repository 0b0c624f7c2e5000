// SPDX-License-Identifier: GPL-3.0-or-later
import CastCore
import CastProtocol
import NIOPosix

/// Why a link to a device ended.
public enum DisconnectReason: Error, Equatable, Sendable, CustomStringConvertible {
    /// This program closed it (`disconnect()`, `leave()`, `stop()`).
    case closedByUser
    /// Nothing arrived from the device for the liveness timeout (10 s by default).
    case heartbeatTimeout(seconds: Double)
    /// The device closed the socket.
    case closedByDevice
    /// The bytes from the device could not be read as Cast frames; the stream is unusable.
    case corruptStream(CastProtocolError)
    /// A network or TLS error.
    case networkError(String)
    /// The app session ended on the device (stopped by someone, or replaced by another app).
    case sessionEnded
    /// Reconnecting failed for too long.
    case reconnectFailed(attempts: Int, lastError: String)

    public var description: String {
        switch self {
        case .closedByUser: "closed by this program"
        case .heartbeatTimeout(let s): "the device sent nothing for \(Self.format(s)) s (heartbeat lost)"
        case .closedByDevice: "the device closed the connection"
        case .corruptStream(let e): "the device sent unreadable data (\(e.description))"
        case .networkError(let s): "network error: \(s)"
        case .sessionEnded: "the app session ended on the device"
        case .reconnectFailed(let n, let last): "gave up reconnecting after \(n) attempts (last error: \(last))"
        }
    }

    static func format(_ s: Double) -> String {
        s == s.rounded() ? String(Int(s)) : String(format: "%.1f", s)
    }
}

/// Everything that can go wrong talking to a Cast device, each with a sentence a person can act on.
public enum CastClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// TCP connect failed (nothing listening, unreachable, refused, timed out).
    case connectionFailed(device: String, reason: String)
    /// The device's host name resolves to no address (a typo, or a name the network's DNS
    /// does not know). `host` is the name as given, `reason` the resolver's text.
    case hostNotFound(host: String, device: String, reason: String)
    /// The TLS handshake failed.
    case tlsFailed(device: String, reason: String)
    /// The certificate-verification policy refused the device's certificate.
    case certificateRejected(device: String, reason: String)
    /// Verified devices are required and this one did not prove it is a genuine Cast device.
    case deviceNotVerified(device: String, failure: DeviceAuthFailure)
    /// No reply to a request within its timeout.
    case timeout(request: String, device: String, seconds: Double)
    /// The link dropped while a request was waiting, or before it could be sent.
    case connectionLost(DisconnectReason)
    /// There is no link to the device (connect or start a session first).
    case notConnected
    /// LAUNCH was refused.
    case launchFailed(appID: String, reason: String)
    /// LOAD was refused by the receiver.
    case loadFailed(reason: String?, detailedErrorCode: Int?)
    /// A newer LOAD replaced this one before it finished.
    case loadCancelled
    /// The command is not valid in the player's current state.
    case invalidPlayerState(command: String)
    /// The receiver refused the request as invalid.
    case invalidRequest(command: String, reason: String?)
    /// The receiver answered with a generic error (ERROR), with the Web Receiver's
    /// `DetailedErrorCode` when it gave one.
    case mediaError(command: String, reason: String?, detailedErrorCode: Int? = nil)
    /// `supportedMediaCommands` in the latest status does not allow this command.
    case commandNotSupported(command: String)
    /// A media command needs loaded media, and there is none.
    case noMediaSession
    /// No app runs on the device, or not the expected one.
    case noRunningApp(device: String)
    /// The remembered session is not running on the device any more.
    case sessionNotFound(sessionID: String)
    /// No remembered session for this device.
    case nothingToResume(device: String)
    /// A custom channel is not connected (no session, or the app does not list its namespace).
    case channelNotConnected(namespace: String)
    /// A custom namespace that is not `urn:x-cast:<name>` or is reserved.
    case invalidNamespace(String)
    /// A value given by the caller is out of range or malformed.
    case invalidArgument(String)
    /// The device sent a reply that could not be read.
    case malformedReply(request: String, reason: String)
    /// The device sent a reply this library did not expect.
    case unexpectedReply(request: String, type: String)
    /// Remembering or reading the session file failed.
    case stateFile(path: String, reason: String)

    public var description: String {
        switch self {
        case .connectionFailed(let d, let r):
            "Could not connect to \(d): \(r). Check that the device is on and the address and port are right."
        case .hostNotFound(let h, let d, let r):
            "Could not connect to \(d): no address was found for the name \(h) (\(r)). Check the name, or give the device's IP address."
        case .tlsFailed(let d, let r):
            "The secure connection to \(d) failed: \(r). Is it a Cast device (port 8009, or the group's port)?"
        case .certificateRejected(let d, let r):
            "The certificate of \(d) was refused: \(r)."
        case .deviceNotVerified(let d, let f):
            "Refused \(d): it is not a verified Cast device (\(f)), and verified devices are required."
        case .timeout(let req, let d, let s):
            "\(d) did not answer \(req) within \(DisconnectReason.format(s)) s. The device may be busy or unreachable; try again or raise --timeout."
        case .connectionLost(let reason):
            "The connection to the device was lost: \(reason)."
        case .notConnected:
            "Not connected to a device: start or join a session first."
        case .launchFailed(let app, let r):
            "The device could not start app \(app): \(r)."
        case .loadFailed(let r, let code):
            "The receiver could not load the media" + (r.map { " (\($0))" } ?? "")
                + (code.map { ", error code \($0)" } ?? "") + ". Check the URL and content type."
        case .loadCancelled:
            "The load was cancelled because another one replaced it."
        case .invalidPlayerState(let c):
            "\(c) is not possible in the player's current state (is anything loaded?)."
        case .invalidRequest(let c, let r):
            "The receiver refused \(c)" + (r.map { ": \($0)" } ?? "") + "."
        case .mediaError(let c, let r, let code):
            "The receiver reported an error for \(c)" + (r.map { ": \($0)" } ?? "") + (code.map { ", error code \($0)" } ?? "") + "."
        case .commandNotSupported(let c):
            "The receiver does not allow \(c) for the current media."
        case .noMediaSession:
            "Nothing is loaded on the receiver: cast something first."
        case .noRunningApp(let d):
            "No app is running on \(d): cast something first."
        case .sessionNotFound(let id):
            "Session \(id) is no longer running on the device."
        case .nothingToResume(let d):
            "There is no remembered session for \(d)."
        case .channelNotConnected(let ns):
            "Channel \(ns) is not connected: the running app must list this namespace."
        case .invalidNamespace(let ns):
            "“\(ns)” is not a usable custom namespace: it must start with “urn:x-cast:”, have a name after it, be at most 128 characters, and not be one of Google's own."
        case .invalidArgument(let s):
            s
        case .malformedReply(let req, let r):
            "The device's reply to \(req) could not be read: \(r)."
        case .unexpectedReply(let req, let t):
            "The device answered \(req) with an unexpected \(t)."
        case .stateFile(let p, let r):
            "Could not use the session file \(p): \(r)."
        }
    }
}

extension CastClientError {
    /// The error for a TCP connection to `device` that could not be made: `hostNotFound` when
    /// the name resolved to no address (so nothing was even tried), else `connectionFailed`.
    static func connecting(to device: DeviceAddress, failedWith error: any Error) -> CastClientError {
        if let e = error as? NIOConnectionError, e.connectionErrors.isEmpty, let dns = e.dnsAAAAError ?? e.dnsAError {
            return .hostNotFound(host: device.host, device: device.description, reason: "\(dns)")
        }
        return .connectionFailed(device: device.description, reason: describe(error))
    }
}
