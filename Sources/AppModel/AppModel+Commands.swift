// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol
import Foundation
import LocalMedia

// Commands: each goes straight to the session's RemoteMediaClient, which checks the
// receiver's supportedMediaCommands; a refusal or failure becomes a notice.
extension AppModel {
    /// Loads the demo sample (with the default subtitle style, if any).
    func castSample() async {
        guard let sample = sampleMedia else { return }
        await load(sample)
        followResume(nil, contentId: sample.contentId)  // not remembered, but ours to Resume
    }

    /// Loads media, launching the Default Media Receiver first when no app is joined, with the
    /// tracks `activeTrackIDs` names turned on (nil: the receiver's choice).
    public func load(_ media: MediaInformation, autoplay: Bool = true, startTime: Double? = nil, activeTrackIDs: [Int]? = nil) async {
        await load(media, autoplay: autoplay, startTime: startTime, activeTrackIDs: activeTrackIDs, failed: nil)
    }

    /// `failed` explains a failure instead of the usual sentence (Play Again).
    func load(
        _ media: MediaInformation, autoplay: Bool = true, startTime: Double? = nil, activeTrackIDs: [Int]? = nil,
        failed: (@MainActor (any Error) async -> Void)?
    ) async {
        var media = media
        if localCast?.media.contentId != media.contentId { lastLoad = .media(media) }
        if let style = preferences.defaultTextTrackStyle { media.textTrackStyle = style }
        checkCORS(media)
        await run(failed: failed) { session in
            try await self.startOwnApp(session)  // AppModel+ForeignApp.swift
            try await session.media.load(media, autoplay: autoplay, startTime: startTime, activeTrackIDs: activeTrackIDs)
        }
    }

    func togglePlayPause() async {
        if isPlaying { await run { try await $0.media.pause() } } else { await run { try await $0.media.play() } }
    }

    // The commands of the table (CommandTable.swift): `perform` runs them once their rule
    // allows, so they do not check it again (no seeking during an ad, a skip not allowed yet).
    func seek(by delta: Double) async {
        await seek(to: position + delta)
    }

    /// Seeks inside what can be seeked: the media's length, or a live stream's window.
    func seek(to seconds: Double) async {
        var target = max(0, seconds)
        if let range = seekableRange { target = min(max(target, range.lowerBound), range.upperBound) }
        await run { [target] in try await $0.media.seek(to: target) }
    }

    /// Chooses a subtitle track (nil = off), keeping the active audio track.
    func selectTextTrack(_ id: Int?) async {
        var ids = activeTrackIDs.filter { tid in !textTracks.contains { $0.trackId == tid } }
        if let id { ids.append(id) }
        await run { [ids] in try await $0.media.setActiveTrackIDs(ids) }
    }

    func selectAudioTrack(_ id: Int) async {
        var ids = activeTrackIDs.filter { tid in !audioTracks.contains { $0.trackId == tid } }
        ids.append(id)
        await run { [ids] in try await $0.media.setActiveTrackIDs(ids) }
    }

    func applyStyle() async {
        let style = draftStyle
        var sent = false
        await run {
            try await $0.media.setTextTrackStyle(style)
            sent = true
        }
        if sent { post(tr("The subtitle style is shown on {0}.", sessionDeviceName ?? tr("the device"))) }
    }

    /// Stores the draft as the default that every later load sends.
    func useStyleAsDefault() {
        preferences.defaultTextTrackStyle = draftStyle
        post(tr("Saved: this style is sent with everything cast from now on."))
    }

    /// The subtitle style the device uses now (the last one applied there), if any.
    public var deviceStyle: TextTrackStyle? { media?.textTrackStyle }

    public var defaultStyle: TextTrackStyle? { preferences.defaultTextTrackStyle }

    func skipAd() async {
        await run { try await $0.media.skipAd() }
    }

    /// Loads what finished or was stopped again, from the start (a local file is shared anew).
    func playAgain() async {
        switch lastLoad {
        case .file(let path)?: await castFiles([path], askToResume: false)
        case .media(let media)?:
            // Media served from this computer by a CastDeck that has quit cannot come back.
            await load(media) { [weak self] error in await self?.playAgainFailed(error, media: media) }
            followResume(linkKey(media.contentId), contentId: media.contentId)
        case nil: break
        }
    }

    /// Casts a link (http or https). The content type is guessed from the path when the
    /// server's is not known; the CORS check runs beside the load.
    /// Whether `text` is an http(s) address with a host (what "Cast a Link" accepts).
    public static func isWebLink(_ text: String) -> Bool {
        guard let url = URL(string: text.trimmingCharacters(in: .whitespacesAndNewlines)),
            let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme)
        else { return false }
        return url.host?.isEmpty == false
    }

    public func castLink(_ text: String) async {
        let link = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard Self.isWebLink(link), let url = URL(string: link) else {
            post(tr("“{0}” is not a web link. Enter an address that starts with http:// or https://.", link))
            return
        }
        let type = MediaFormat.contentType(forLink: link)
        let name = url.lastPathComponent.removingPercentEncoding ?? url.lastPathComponent
        let metadata = MediaMetadata(title: name.isEmpty || name == "/" ? url.host : name, subtitle: url.host)
        var media = MediaInformation(contentId: link, contentType: type, metadata: metadata)
        // An HLS playlist that is still growing is a live stream (as `castctl cast` judges it).
        media.streamType = await HLSLiveCheck.streamType(for: media)
        if media.streamType == .live {
            // Live: it starts at the live edge, and there is no place to go on from.
            await load(media)
            return
        }
        // Stopped part-way before: go on from there? (AppModel+Resume.swift)
        let key = linkKey(link)
        var start: Double?
        switch await resumeStart(for: key, title: metadata.title ?? link) {
        case .cancelled: return
        case .at(let point): start = point.position
        case .fromStart: break
        }
        await load(media, startTime: start)
        followResume(key, contentId: link)
    }

    /// Runs `body` on the session; a failure becomes a notice (`failed` explains it instead).
    /// Likes or dislikes what plays, or takes the rating back when it is already given.
    func rate(_ action: UserAction) async {
        let clear = userActions.contains(action)
        await run { try await $0.media.userAction(action, clear: clear) }
    }

    func run(failed: (@MainActor (any Error) async -> Void)? = nil, _ body: (CastSession) async throws -> Void) async {
        guard let session else {
            post(tr("Not connected to a Cast device."))
            return
        }
        do {
            try await body(session)
            // What the reply changed is current when the command returns (the streams bring
            // the same values a moment later; `adopt` skips what it has).
            let (media, receiver) = (await session.media.snapshot, await session.receiverStatus)
            adopt(media, from: session)
            if self.session === session, let receiver { receiverStatus = receiver }
        } catch {
            if let failed { await failed(error) } else { fail(error, device: sessionDeviceName) }
        }
    }
}
