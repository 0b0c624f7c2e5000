// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient
import CastProtocol

extension ClientOptions {
    /// Joins the running media session, runs one media command and prints the resulting status.
    func runMediaCommand(_ command: @Sendable (RemoteMediaClient) async throws(CastClientError) -> Void) async throws {
        let device = try await target.resolve()
        let report = try await withSession { session in
            try await joinMedia(session)
            try await command(session.media)
            let info = await session.sessionInfo
            return await StatusReport(device: device.name, session: session, info: info)
        }
        emit(json: report, text: report.mediaLine)
    }
}

extension StatusReport: @unchecked Sendable {}
