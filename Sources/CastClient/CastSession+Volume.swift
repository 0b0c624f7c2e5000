// SPDX-License-Identifier: GPL-3.0-or-later

import CastCore
import CastProtocol
import Foundation
import Logging

extension CastSession {
    // MARK: device volume

    /// Sets the device volume (0 ... 1).
    @discardableResult
    public func setVolume(_ level: Double) async throws(CastClientError) -> ReceiverStatus {
        guard level.isFinite, (0...1).contains(level) else { throw .invalidArgument("A volume must be between 0 and 1 (got \(level)).") }
        return try await receiverVolume(Volume(level: level))
    }

    /// Mutes or unmutes the device.
    @discardableResult
    public func setMuted(_ muted: Bool) async throws(CastClientError) -> ReceiverStatus {
        try await receiverVolume(Volume(muted: muted))
    }

    func receiverVolume(_ volume: Volume) async throws(CastClientError) -> ReceiverStatus {
        if connection == nil { _ = try await connectPlatform(resuming: false) }
        guard let connection else { throw .notConnected }
        let reply = try await connection.request("SET_VOLUME", to: CastEndpoint.receiver) {
            ReceiverMessage.setVolume(SetVolumeRequest(requestId: $0, volume: volume))
        }
        switch reply {
        case .receiver(.receiverStatus(let m)): return m.status
        case .receiver(.invalidRequest(let e)): throw .invalidRequest(command: "SET_VOLUME", reason: e.reason?.rawValue)
        default: throw .unexpectedReply(request: "SET_VOLUME", type: "\(reply)")
        }
    }
}
