import CastClient
import CastProtocol

extension AppModel {
    /// Connects (joining whatever runs there), then follows the session's state and media
    /// statuses. The Default Media Receiver is launched only when the first media is loaded.
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
        let session = CastSession(device: device.address, deviceID: device.id, configuration: configuration)
        do {
            let status = try await session.connect()
            let running = (status.applications ?? []).filter { $0.isIdleScreen != true }
            if !running.isEmpty {
                _ = try await session.join()
                _ = try? await session.media.requestStatus()
            }
        } catch {
            await session.disconnect()
            if case .connecting(let id) = connection, id == device.id {
                connection = self.session != nil ? previous : .disconnected
            }
            post(tr("Could not connect to {0}: {1}", device.friendlyName, Self.describe(error)))
            return
        }
        guard case .connecting(let id) = connection, id == device.id else {
            await session.leave()
            return
        }
        if let old = self.session {
            forgetSession()
            await old.leave()
        }
        self.session = session
        connection = .connected(deviceID: device.id)
        follow(session, name: device.friendlyName)
        if !pendingFiles.isEmpty { await castFiles(pendingFiles) }
    }

    /// Leaves the session (the receiver app keeps playing for other senders).
    public func disconnect() async {
        let old = session
        forgetSession()
        connection = .disconnected
        if let old { await old.leave() }
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
            Task { [weak self] in
                for await _ in media.statusUpdates() {
                    guard let self, self.session === session else { return }
                    self.statusChanged()
                }
            },
            Task { [weak self] in
                // The session is over for good when it disconnects for any reason but our own.
                for await state in states {
                    guard case .disconnected(let reason?) = state else { continue }
                    if case .closedByUser = reason { continue }
                    guard let self, self.session === session else { return }
                    self.sessionEnded(tr("The connection to {0} was lost.", name))
                    return
                }
            },
        ]
    }

    private func statusChanged() {
        statusRevision += 1
        followLocalCast()
        followQueueCasts()
        resolveArtwork()
    }

    private func forgetSession() {
        for task in sessionTasks { task.cancel() }
        sessionTasks = []
        session = nil
        queue = MediaQueue()
        endQueueCasts()
        authentication = .notChecked
        endLocalCast()
        statusRevision += 1
        artworkPath = nil
        artworkKey = nil
    }

    private func sessionEnded(_ message: String) {
        let old = session
        forgetSession()
        connection = .disconnected
        post(message)
        if let old { Task { await old.leave() } }
    }

    private func resolveArtwork() {
        if let local = localCastArtwork {
            // The media server answers only the device: show the file's artwork from disk.
            artworkKey = local
            if artworkPath != local { artworkPath = local }
            return
        }
        let images = media?.metadata?.images ?? []
        let key = images.map(\.url).joined(separator: "|")
        guard key != artworkKey else { return }
        artworkKey = key
        artworkPath = nil
        guard !images.isEmpty else { return }
        Task { [weak self, artwork] in
            let path = await artwork.localPath(for: images, width: 480)
            guard let self, self.artworkKey == key else { return }
            self.artworkPath = path
        }
    }
}
