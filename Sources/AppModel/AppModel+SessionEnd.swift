// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol

// Ways a session goes away without us (issue 30): ambient mode tears down a paused app, a hub
// goes back to its home screen, another phone starts its app, the TV switches input, the device
// restarts. CastClient's SessionEnding tells them apart from the receiver statuses and words each
// in one sentence (translated here); where CastDeck cast the media itself the notice offers
// Resume, which loads it again where it stood (a local file shared anew).
//
//   statusChanged ─▶ notePlayed(): what plays, where, whether ours (castByUs)
//   RECEIVER_STATUS ─▶ receiverStatusChanged(from:to:) ─▶ SessionEnding.classify ─▶ tell(_:)
//   reconnected without the media (checkMediaAfterReconnect) ─▶ tell(.restarted)
extension AppModel {
    /// How the last app session went away, and what Resume would do.
    public struct SessionEnd: Equatable, Sendable {
        public var ending: SessionEnding
        /// The sentence the notice said.
        public var sentence: String
        /// Where the media stood, when CastDeck cast it itself (Resume loads it there).
        public var resumeAt: Double?
    }

    /// What played last on the joined app (kept while it plays, read when it goes away).
    struct LastPlayed {
        var appSession: String
        var state: PlayerState
        var position: Double
        var title: String
        var mediaSessionId: Int
    }

    /// Notes what plays now, for the sentence and Resume if the app goes away.
    func notePlayed() {
        guard let status = mediaStatus, let app = Self.mediaApp(in: receiverStatus) else { return }
        guard hasMedia else {
            // Finished or stopped: the app now plays nothing (what a hub's idle timeout counts).
            if lastPlayed?.appSession == app.sessionId, status.playerState == .idle { lastPlayed?.state = .idle }
            return
        }
        sessionEnd = nil
        lastPlayed = LastPlayed(
            appSession: app.sessionId, state: status.playerState, position: position(at: .now), title: title, mediaSessionId: status.mediaSessionId)
    }

    /// The device's status changed: did our app go away, or the TV's input?
    func receiverStatusChanged(from before: ReceiverStatus?, to after: ReceiverStatus) {
        // Back after the link dropped: a device without our app restarted, which
        // checkMediaAfterReconnect says once the media's status is in; its first status is no
        // sign of ambient mode or an idle timeout.
        guard !isReconnecting, playingWhenDropped == nil else { return }
        guard let gone = Self.mediaApp(in: before) ?? before?.applications?.first(where: { $0.isIdleScreen != true }) else {
            // No app ran: only an input switch is news (a dongle showing nothing).
            return
        }
        guard !endedByUs.contains(gone.sessionId) else { return }
        // Casting the screen here replaced it (AppModel+Mirror.swift): the person chose that.
        if after.applications?.contains(where: { isOwnMirror($0.appId) }) == true { return }
        let played = lastPlayed?.appSession == gone.sessionId ? lastPlayed : nil
        guard let ending = SessionEnding.classify(before: before, after: after, app: gone, mediaState: played?.state) else { return }
        // An app that played nothing and was replaced is no news of ours unless it showed something.
        if played == nil, case .takenOver = ending { return }
        // A dongle on an input nobody watches plays on: nothing to resume.
        let stillRuns = after.applications?.contains { $0.sessionId == gone.sessionId } == true
        tell(ending, device: sessionDeviceName ?? tr("The device"), title: played?.title, resumable: !stillRuns)
    }

    /// Says how the session went away, once, and offers Resume for what CastDeck cast.
    func tell(_ ending: SessionEnding, device: String, title: String?, resumable: Bool = true) {
        let sentence = ending.sentence(device: device, title: title) { Localization.substitute(Localization.translate($0), $1) }
        let played = lastPlayed
        let ours = played != nil && played?.mediaSessionId == castByUs
        let resumeAt = resumable && ours && lastLoad != nil ? played?.position : nil
        sessionEnd = SessionEnd(ending: ending, sentence: sentence, resumeAt: resumeAt)
        lastPlayed = nil
        post(sentence, offer: resumeAt != nil ? .resumeEnded : nil)
    }

    func forgetSessionEnd() {
        sessionEnd = nil
        lastPlayed = nil
        castByUs = nil
        endedByUs = []
    }

    /// Loads what went away again where it stood (a local file is shared anew).
    func resumeEnded() async {
        guard let at = sessionEnd?.resumeAt, let session, case .connected(let deviceID) = connection else { return }
        sessionEnd = nil
        switch lastLoad {
        case .file(let path)?:
            await castFile(path, session: session, deviceID: deviceID, startTime: at)
        case .media(let media)?:
            await load(media, startTime: at)
            followResume(linkKey(media.contentId), contentId: media.contentId)
        case nil:
            break
        }
    }
}
