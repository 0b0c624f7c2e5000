// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol

/// What `castctl watch` follows to say how an app session went away (issue 30): the device's
/// statuses one after another, the last state and title of the app's media, and whether the
/// link dropped in between. CastClient's SessionEnding classifies and words it (the window's
/// notice says the same sentence, translated).
actor SessionEndWatch {
    let device: String
    private var before: ReceiverStatus?
    private var mediaState: PlayerState?
    private var title: String?
    private var linkDropped = false

    init(device: String) { self.device = device }

    func media(_ status: MediaStatus?) {
        guard let status else { return }
        mediaState = status.playerState
    }

    func metadata(_ info: MediaInformation?) {
        if let info { title = info.metadata?.displayTitle ?? info.contentId.split(separator: "/").last.map(String.init) }
    }

    func state(_ state: SessionState) {
        if case .resuming = state { linkDropped = true }
    }

    /// The sentence for the app that went away between the last status and this one, if any.
    func receiver(_ after: ReceiverStatus) -> (SessionEnding, String)? {
        defer { before = after }
        let dropped = linkDropped
        linkDropped = false
        guard let gone = before?.applications?.first(where: { $0.isIdleScreen != true }) else { return nil }
        let stillRuns = after.applications?.contains { $0.sessionId == gone.sessionId } == true
        let ending: SessionEnding?
        if dropped, !stillRuns {
            // Back after a drop without the app: the device restarted.
            ending = .restarted
        } else {
            ending = SessionEnding.classify(before: before, after: after, app: gone, mediaState: mediaState)
        }
        guard let ending else { return nil }
        let sentence = ending.sentence(device: device, title: mediaState == nil ? nil : title)
        if !stillRuns {
            mediaState = nil
            title = nil
        }
        return (ending, sentence)
    }
}
