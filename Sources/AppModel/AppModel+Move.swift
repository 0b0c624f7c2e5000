// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol
import LocalMedia

// Move to… (stream transfer): what plays on the connected device goes to another one, with
// CastClient's StreamTransfer (the same `castctl move` runs). Files served from this computer
// are shared anew for the target's address (tokens are bound to the device that fetches), and
// their old shares end with the old session. Once the target plays, the window follows its
// session; a failure leaves the source playing and says why in a toast.
//
//   moveTo (the dialog: moveTargets) ──moveToDevice(index)──▶ move(to:) ──▶ move(toAddress:)
//        moveProgress (the dialog's progress) ◀── StreamTransfer steps
extension AppModel {
    /// A move under way: where to, and how far it is (the dialog shows it).
    public struct MoveProgress: Equatable, Sendable {
        public var target: String
        public var step: StreamTransfer.Step

        /// One line for the dialog.
        public var text: String {
            switch step {
            case .readingSource: tr("Reading what plays…")
            case .startingTarget: tr("Connecting to {0}…", target)
            case .loading, .waitingForTarget: tr("Starting playback on {0}…", target)
            case .stoppingSource: tr("Stopping playback here…")
            }
        }
    }

    /// The devices playback can move to: every known device but the connected one.
    public var moveTargets: [DeviceInfo] {
        devices.filter { $0.id != sessionDeviceID }
    }

    /// Whether Move to… can start: connected, something loaded, somewhere to go, no move under way.
    var canMove: Bool {
        controlsMedia && mediaStatus?.playerState != .idle && !moveTargets.isEmpty && moveProgress == nil
    }

    /// Moves playback to `moveTargets[index]` (the dialog's choice).
    func moveToTarget(at index: Int) async {
        let targets = moveTargets
        guard targets.indices.contains(index) else { return }
        await move(to: targets[index])
    }

    /// Moves playback to a known device.
    public func move(to device: DeviceInfo) async {
        _ = await move(toAddress: device.address, deviceID: device.id, name: device.friendlyName, model: device.model)
    }

    /// Moves what plays to the device at `address` (a device of the list, or one the caller
    /// knows otherwise: a speaker group's leader). The window then follows the target's
    /// session. Returns whether it moved; a failure is a toast, and the source plays on.
    @discardableResult
    public func move(toAddress address: DeviceAddress, deviceID: String, name: String, model: String? = nil) async -> Bool {
        guard let source = session, isConnected, moveProgress == nil else { return false }
        moveProgress = MoveProgress(target: name, step: .readingSource)
        defer { moveProgress = nil }
        var configuration = clientConfiguration
        // As when connecting: what the device advertised over mDNS bounds its certificate.
        if let known = devices.first(where: { $0.id == deviceID }), known.device.source == .discovered {
            configuration.deviceAuthentication.advertisedCapabilities = Int(known.device.capabilities.rawValue)
        }
        let target = CastSession(
            device: address, deviceID: deviceID, configuration: configuration,
            locate: { [weak self] in await MainActor.run { self?.devices.first { $0.id == deviceID }?.address } })
        let shares = MoveShares()
        let words = Localization.trackWords
        let report: StreamTransfer.Report
        do {
            report = try await StreamTransfer.move(
                from: source, to: target,
                rewrite: { [weak self] snapshot, ends throws(StreamTransferError) in
                    guard let self else { return snapshot }
                    return try await self.reshare(snapshot, for: ends, model: model, words: words, into: shares)
                },
                progress: { [weak self] step in Task { @MainActor in self?.moveProgress?.step = step } })
        } catch {
            await target.disconnect()
            for cast in await shares.casts { await mediaShare.end(cast) }
            post(Self.moveFailure(error, target: name), detail: error.description)
            return false
        }
        // The old session ends here (its shares with it); the new shares belong to the target.
        let known =
            devices.first { $0.id == deviceID }
            ?? DeviceInfo(id: deviceID, friendlyName: name, model: model ?? "", host: address.host, port: address.port, origin: .added)
        await takeOver(target, device: known)
        let casts = await shares.casts
        if report.snapshot.isQueue {
            queueCasts = casts
            queueCastsSession = report.targetStatus.mediaSessionId
        } else if let cast = casts.first {
            localCast = cast
            localCastSeen = true
            lastLoad = .file(cast.info.path)
        }
        if let failure = report.sourceStopFailure { post(tr("Playback moved to {0}, but it could not be stopped here.", name), detail: failure) }
        return true
    }

    /// The toast's sentence for a move that did not happen (the technical one goes to Details).
    static func moveFailure(_ error: StreamTransferError, target: String) -> String {
        switch error {
        case .nothingPlaying: tr("Nothing is playing, so there is nothing to move.")
        case .sameDevice: tr("{0} is already playing it.", target)
        case .source: tr("Could not read what plays here, so nothing was moved.")
        case .target, .targetDidNotPlay, .targetTimedOut: tr("{0} could not play it, so it goes on playing here.", target)
        case .unreachableContent(let sentence): sentence
        }
    }

    /// Shares the files of this computer in `snapshot` again, for the target's address, and
    /// puts their new URLs in its items; other content is left as it is.
    private func reshare(
        _ snapshot: PlaybackSnapshot, for ends: ConnectionEndpoints, model: String?, words: TrackWords, into shares: MoveShares
    ) async throws(StreamTransferError) -> PlaybackSnapshot {
        let served = [localCast].compactMap { $0 } + queueCasts
        guard !served.isEmpty else { return snapshot }
        var out = snapshot
        for index in out.items.indices {
            guard let media = out.items[index].media, let old = served.first(where: { $0.media.contentId == media.contentId }) else { continue }
            let startAt = index == out.currentIndex ? snapshot.source.streamPosition(at: .now) : nil
            do {
                let cast = try await mediaShare.prepare(
                    file: old.info.path, device: ends.remote, localAddress: ends.local, model: model, startAt: startAt, words: words)
                await shares.add(cast)
                if let hls = cast.hls { try await hls.waitForFirstSegment() }
                var fresh = cast.media
                fresh.textTrackStyle = media.textTrackStyle
                out.items[index].media = fresh
            } catch {
                throw .unreachableContent(tr("{0} could not be shared with the other device: {1}", Self.fileName(old.info.path), "\(error)"))
            }
        }
        return out
    }
}

/// The shares made for a move's target, collected while it runs (ended if it fails).
actor MoveShares {
    private(set) var casts: [LocalCast] = []
    func add(_ cast: LocalCast) { casts.append(cast) }
}

extension DeviceInfo {
    /// What Move to… says beside a device's name: "Group", or the model it reported (nothing
    /// for a device added by address that has not said it).
    public var moveDetail: String? {
        isGroup ? tr("Group") : device.model.flatMap { $0.isEmpty ? nil : $0 }
    }
}
