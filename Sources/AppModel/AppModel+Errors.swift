// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import LocalMedia

// Failures as a person reads them: one translated sentence that says what happened and what to
// do, with the library's technical text (addresses, errno, protocol names) kept for "Details".
extension AppModel {
    /// The sentence for a CastClient failure. `device` is the device's friendly name.
    public static func explain(_ error: CastClientError, device: String? = nil) -> String {
        let name = device ?? tr("The device")
        switch error {
        case .connectionFailed, .tlsFailed:
            return tr("{0} did not answer. Check that it is on and on this network.", name)
        case .timeout(let request, _, _) where request == "CONNECT" || request == "GET_STATUS":
            return tr("{0} did not answer. Check that it is on and on this network.", name)
        case .timeout:
            return tr("{0} did not answer in time. Try again.", name)
        case .certificateRejected:
            return tr("{0} sent a certificate that CastDeck does not accept.", name)
        case .deviceNotVerified:
            return tr("{0} could not prove that it is a genuine Cast device, and only verified devices are allowed.", name)
        case .connectionLost, .notConnected, .channelNotConnected:
            return tr("The connection to {0} was lost.", name)
        case .launchFailed:
            return tr("{0} could not start its media player.", name)
        case .loadFailed, .mediaError:
            return tr("{0} could not play this media. It may be in a format the device does not play, or unreachable from it.", name)
        case .loadCancelled:
            return tr("Other media started before this one had loaded.")
        case .invalidPlayerState:
            return tr("That is not possible while nothing is loaded.")
        case .commandNotSupported(let command) where command == "SET_PLAYBACK_RATE":
            return tr("This receiver cannot change the playback speed.")
        case .commandNotSupported(let command) where command == "SKIP_AD":
            return tr("This ad cannot be skipped yet.")
        case .commandNotSupported:
            return tr("The media playing on {0} does not allow this.", name)
        case .invalidRequest:
            return tr("{0} refused the request.", name)
        case .noMediaSession:
            return tr("Nothing is playing on {0}.", name)
        case .noRunningApp, .sessionNotFound, .nothingToResume:
            return tr("Nothing is running on {0} any more.", name)
        case .invalidNamespace, .invalidArgument, .malformedReply, .unexpectedReply, .stateFile:
            return tr("{0} answered in a way CastDeck did not understand.", name)
        }
    }

    /// Posts a failure: the sentence, with the technical text behind "Details".
    func fail(_ error: any Error, device: String? = nil, retry deviceID: String? = nil) {
        let sentence: String
        if let e = error as? CastClientError {
            sentence = Self.explain(e, device: device)
        } else if let e = error as? LocalMediaError {
            sentence = e.description
        } else {
            sentence = tr("Something went wrong: {0}", "\(error)")
        }
        let detail = String(describing: error)
        post(sentence, detail: detail == sentence ? nil : detail, retry: deviceID)
    }
}
