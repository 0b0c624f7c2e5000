// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastProtocol
import LocalMedia

// Media that this computer serves to the device (LocalMedia's MediaShare, AppModel+LocalFiles):
//
//   - the quit question: media served from here stops when CastDeck quits, and the demo
//     receiver lives in this process, so Ctrl+Q offers what can really happen (`quitChoice`);
//   - the CORS check leaves this computer's media servers alone: they answer only the device
//     (403 to everyone else), so asking them says nothing about what the device gets;
//   - a cast whose server is gone (CastDeck quit, then was started again and joined the device)
//     is named as such when Play Again fails, instead of blaming the format.
extension AppModel {
    /// What Ctrl+Q offers while casting, besides Stop Casting.
    public enum QuitChoice: Equatable, Sendable {
        /// The device fetches the media from elsewhere: CastDeck may quit and leave it playing.
        case keepPlaying
        /// The device plays from this computer (a file, a converted file, a queue of files):
        /// quitting would end it, so CastDeck can keep running in the background instead.
        case keepRunning
        /// The device is the demo receiver inside CastDeck, which quits with it: Stop or Cancel.
        case stopOnly
    }

    public var quitChoice: QuitChoice {
        if connectedDevice?.origin == .demo { return .stopOnly }
        return isServedFromThisComputer ? .keepRunning : .keepPlaying
    }

    /// Whether what plays on the device is served by CastDeck from this computer (the file
    /// playing, or the files of its queue): it stops once CastDeck quits.
    public var isServedFromThisComputer: Bool {
        if let cast = localCast, media?.contentId == cast.media.contentId { return true }
        return !queueCasts.isEmpty
    }

    /// The tokens CastDeck shares now (the file playing and the queue's files).
    var sharedTokens: Set<String> {
        Set(((localCast.map { [$0] } ?? []) + queueCasts).flatMap(\.tokens))
    }

    /// The address this computer has towards the connected device (where its media server listens).
    func thisComputersAddress() async -> String? {
        guard let session else { return nil }
        return try? await session.connectionEndpoints().local
    }

    /// Warns (as notices, the server's answer behind Details) about remote media whose servers
    /// will not let a Cast device read it. Runs beside the LOAD, never delaying it. Not checked:
    /// the demo's sample (the simulated receiver never fetches it), and anything a media server
    /// of this computer serves (CastDeck's own files, or an earlier CastDeck's), which answers
    /// only the device.
    func checkCORS(_ media: MediaInformation) {
        guard media.contentId != sampleMedia?.contentId, media.contentId.hasPrefix("http") else { return }
        let own = sharedTokens
        corsCheck = Task { [weak self] in
            let here = await self?.thisComputersAddress()
            let problems = await CORSCheck.problems(
                for: media,
                skipping: { url in
                    guard let served = MediaServerURL(url) else { return false }
                    return own.contains(served.token) || here.map(served.isOn(host:)) == true
                })
            guard let self else { return }
            for p in problems { self.post(Self.sentence(for: p), detail: p.detail) }
        }
    }

    /// The CORS problem as a person reads it; the server's answer goes behind Details.
    static func sentence(for p: CORSCheck.Problem) -> String {
        if p.reason == .unreachable {
            return tr("CastDeck could not reach {0} to check that a Cast device may read the media there.", p.host)
        }
        if !p.isMedia { return tr("Subtitles from {0} will not show: that server does not let a Cast device read them.", p.host) }
        return p.isAdaptive
            ? tr("The media from {0} will not play: that server does not let a Cast device read it.", p.host)
            : tr("The media from {0} will play without subtitles: that server does not let a Cast device read it.", p.host)
    }

    /// Whether `url` was shared by a media server of this computer that no longer shares it:
    /// its address is this computer's, its path has a share's token, and no share here has it.
    func isEndedShare(_ url: String) async -> Bool {
        guard let served = MediaServerURL(url), !sharedTokens.contains(served.token),
            let here = await thisComputersAddress(), served.isOn(host: here)
        else { return false }
        return await !mediaShare.isServing(url)
    }

    /// Play Again failed: a cast whose server is gone is named as such, anything else is
    /// explained as usual.
    func playAgainFailed(_ error: any Error, media: MediaInformation) async {
        let device = sessionDeviceName
        if let e = error as? CastClientError, Self.isLoadFailure(e), await isEndedShare(media.contentId) {
            post(
                tr("This computer's media server no longer shares this file. Cast it again."),
                detail: "\(device ?? "The device") could not load \(media.contentId): no media server of this computer shares it now (\(e))")
            return
        }
        fail(error, device: device)
    }

    static func isLoadFailure(_ error: CastClientError) -> Bool {
        switch error {
        case .loadFailed, .mediaError: true
        default: false
        }
    }
}
