// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol
import LocalMedia

extension AppModel {
    /// Connects (joining whatever runs there), then follows the session's state, the device's
    /// status and the media statuses. The Default Media Receiver is launched only when the
    /// first media is loaded.
    public func connect(to device: DeviceInfo) async {
        if case .connected(let id) = connection, id == device.id { return }
        // The current session stays until the new one works: a mistyped or unreachable
        // device must not stop what is being controlled now.
        let previous = connection
        connection = .connecting(deviceID: device.id)
        var configuration = clientConfiguration
        // What the device advertised over mDNS: an audio-only certificate must not claim video.
        if device.device.source == .discovered {
            configuration.deviceAuthentication.advertisedCapabilities = Int(device.device.capabilities.rawValue)
        }
        // Before each reconnect attempt the session asks where the device is now: a device
        // that came back on another address or port is found by its id in the device list.
        let id = device.id
        let session = CastSession(
            device: device.address, deviceID: device.id, configuration: configuration,
            locate: { [weak self] in await MainActor.run { self?.devices.first { $0.id == id }?.address } })
        do {
            let status = try await session.connect()
            if Self.mediaApp(in: status) != nil {
                _ = try await session.join()
                _ = try? await session.media.requestStatus()
            }
        } catch {
            await session.disconnect()
            if case .connecting(let id) = connection, id == device.id {
                connection = self.session != nil ? previous : .disconnected
            }
            fail(error, device: device.friendlyName, retry: device.id)
            return
        }
        guard case .connecting(let id) = connection, id == device.id else {
            await session.leave()
            return
        }
        // It answered: what an earlier probe said against it no longer holds.
        if var answered = deviceList.first(where: { $0.id == device.id }), answered.probeFailure != nil {
            answered.probeFailure = nil
            answered.statusText = nil
            fold(.updated(answered))
        }
        await takeOver(session, device: device)
        if !pendingFiles.isEmpty { await castFiles(pendingFiles) }
    }

    /// Makes `session` the one the window follows, leaving the one before (its app plays on):
    /// after connecting, and after playback moved to another device (AppModel+Move.swift).
    func takeOver(_ session: CastSession, device: DeviceInfo) async {
        if let old = self.session {
            forgetSession()
            await old.leave()
        }
        self.session = session
        connection = .connected(deviceID: device.id)
        // What the session knows already is shown at once; its streams bring every change.
        receiverStatus = await session.receiverStatus
        adopt(await session.media.snapshot, from: session)
        follow(session, name: device.friendlyName)
    }

    /// Connects again to a device a toast offered ("Try Again").
    public func retry(deviceID: String) async {
        guard let device = devices.first(where: { $0.id == deviceID }) else { return }
        await connect(to: device)
    }

    /// Leaves the session (the receiver app keeps playing for other senders).
    public func disconnect() async {
        let old = session
        forgetSession()
        connection = .disconnected
        if let old { await old.leave() }
    }

    /// The name of the device of the current session (connected or reconnecting).
    public var sessionDeviceName: String? {
        guard let id = sessionDeviceID else { return nil }
        return devices.first { $0.id == id }?.friendlyName
    }

    var sessionDeviceID: String? {
        switch connection {
        case .connected(let id), .reconnecting(let id): id
        case .connecting, .disconnected: nil
        }
    }

    public var isReconnecting: Bool { if case .reconnecting = connection { true } else { false } }

    /// An app on the device that speaks the media namespace (not the idle screen).
    static func mediaApp(in status: ReceiverStatus?) -> ReceiverApplication? {
        (status?.applications ?? []).first {
            $0.isIdleScreen != true && $0.handles(CastNamespace.mediaURN)
        }
    }

    private func follow(_ session: CastSession, name: String) {
        let media = session.media
        let states = session.stateUpdates()
        let verdicts = session.authenticationUpdates()
        sessionTasks = [
            Task { [weak self] in
                for await verdict in verdicts {
                    guard let self, self.session === session else { return }
                    self.authentication = verdict
                }
            },
            followQueue(session),  // AppModel+Queue.swift
            followGroup(session),  // AppModel+Group.swift
            Task { [weak self] in
                for await snapshot in await media.statusUpdates() {
                    guard let self, self.session === session else { return }
                    self.adopt(snapshot, from: session)
                }
            },
            Task { [weak self] in
                for await status in await session.receiverStatusUpdates() {
                    guard let self, self.session === session else { return }
                    let before = self.receiverStatus
                    self.receiverStatus = status
                    self.receiverStatusChanged(from: before, to: status)  // AppModel+SessionEnd.swift
                    self.followForeignApp()  // AppModel+ForeignApp.swift
                    await self.followDevice(session, status)
                }
            },
            Task { [weak self] in
                for await state in states {
                    guard let self, self.session === session else { return }
                    if self.sessionStateChanged(state, session: session, name: name) { return }
                }
            },
        ]
    }

    /// Folds one session state into the connection; true when the session is over.
    private func sessionStateChanged(_ state: SessionState, session: CastSession, name connectName: String) -> Bool {
        let id = session.deviceID
        // The name the device has now: one added by address is named by its setup API only
        // after the connection began, and the sentences below must not say the bare address.
        let name = devices.first { $0.id == id }?.friendlyName ?? connectName
        switch state {
        case .resuming:
            // The link dropped: freeze the clock where it was and say so.
            if case .connected = connection {
                frozenPosition = position(at: .now)
                connection = .reconnecting(deviceID: id)
                if hasMedia { playingWhenDropped = title }
            }
        case .connected:
            if case .reconnecting = connection {
                frozenPosition = nil
                connection = .connected(deviceID: id)
                Task { [weak self] in
                    _ = try? await session.media.requestStatus()
                    guard let self, self.session === session else { return }
                    self.checkMediaAfterReconnect(deviceName: name)
                }
            }
        case .connecting:
            break
        case .disconnected(nil), .disconnected(.closedByUser?):
            break
        case .disconnected(.sessionEnded?):
            // The app on the device ended (stopped by anyone, or replaced); the link stays and
            // the device's status keeps coming, so the window follows whatever starts next.
            break
        case .disconnected(.reconnectFailed?):
            sessionEnded(
                tr("{0} did not answer. Check that it is on and on this network.", name),
                detail: state.description, retry: id)
            return true
        case .disconnected(let reason?):
            sessionEnded(tr("The connection to {0} was lost.", name), detail: reason.description, retry: id)
            return true
        }
        return false
    }

    /// Follows the device rather than one app session: when media starts there while we are
    /// joined to nothing (another sender launched it, or the device restarted), join it.
    private func followDevice(_ session: CastSession, _ status: ReceiverStatus) async {
        guard case .connected = connection, await session.sessionInfo == nil,
            Self.mediaApp(in: status) != nil
        else { return }
        do {
            _ = try await session.join()
            _ = try? await session.media.requestStatus()
        } catch {
            // The app ended again before we joined; the next status tries once more.
        }
    }

    /// Takes in a snapshot the media client published (from its stream, or read back after a
    /// command so that the state is current when the command returns); an older one than
    /// what is stored is ignored.
    func adopt(_ new: MediaStatusSnapshot, from session: CastSession) {
        guard self.session === session else { return }
        if let old = snapshot, old.receivedAt >= new.receivedAt { return }
        snapshot = new
        statusChanged()
    }

    private func statusChanged() {
        if hasMedia {
            lostToRestart = false
            playingWhenDropped = nil
        }
        notePlayed()  // AppModel+SessionEnd.swift
        rememberLoad()
        resumeStatus()  // AppModel+Resume.swift
        followLocalCast()
        followQueueCasts()
        followChapters()  // AppModel+Chapters.swift
        resolveArtwork()
        resolveAdArtwork()  // AppModel+Ads.swift
    }

    /// Remembers what plays for "Play Again" (ours, or another sender's).
    private func rememberLoad() {
        guard let status = mediaStatus, status.playerState != .idle, let media = status.effectiveMedia else { return }
        if let cast = localCast, cast.media.contentId == media.contentId {
            if case .file? = lastLoad { return }
        } else if case .media(let known)? = lastLoad, known.contentId == media.contentId {
            return
        } else {
            lastLoad = .media(media)
        }
    }

    /// The title of what was loaded last, for when the device no longer reports it.
    var lastLoadTitle: String? {
        switch lastLoad {
        case .media(let m)?: m.metadata?.displayTitle
        case .file(let path)?: LocalMediaInfo.cleanTitle(fileName: Self.nameOf(path))
        case nil: nil
        }
    }

    /// Back on a device after the link dropped: when what played is gone (the device restarted,
    /// and CastClient started the app again with nothing loaded), say so, and keep it shown
    /// as Stopped with Play Again instead of leaving the player without a word.
    func checkMediaAfterReconnect(deviceName: String) {
        guard let title = playingWhenDropped else { return }
        playingWhenDropped = nil
        guard !hasMedia, lastLoad != nil else { return }
        lostToRestart = true
        tell(.restarted, device: deviceName, title: title)  // AppModel+SessionEnd.swift
    }

    private func forgetSession() {
        saveResumePosition()  // where our media stood, before the session goes
        lostToRestart = false
        playingWhenDropped = nil
        forgetSessionEnd()  // AppModel+SessionEnd.swift
        forgetGroup()  // AppModel+Group.swift
        for task in sessionTasks { task.cancel() }
        sessionTasks = []
        session = nil
        lastLoad = nil
        queue = MediaQueue()
        endQueueCasts()
        authentication = .notChecked
        frozenPosition = nil
        endLocalCast()
        snapshot = nil
        receiverStatus = nil
        artworkPaths = [:]
        artworkKey = nil
        adArtworkPaths = [:]
        adArtworkKey = nil
    }

    private func sessionEnded(_ message: String, detail: String?, retry deviceID: String) {
        let old = session
        forgetSession()
        connection = .disconnected
        post(message, detail: detail, retry: deviceID)
        if let old { Task { await old.leave() } }
    }
}
