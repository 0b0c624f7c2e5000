// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import LocalMedia

// Failures as a person reads them: one translated sentence that says what happened and what to
// do, with the library's technical text (addresses, errno, protocol names) kept for "Details".
extension AppModel {
    /// The sentence for a CastClient failure. `device` is the device's friendly name;
    /// `command` the table command that failed (its own sentence for "not supported").
    public static func explain(_ error: CastClientError, device: String? = nil, command: AppAction.Name? = nil) -> String {
        let name = device ?? tr("The device")
        switch error {
        case .connectionFailed, .tlsFailed:
            return didNotAnswer(name)
        case .hostNotFound(let host, _, _):
            return notFound(host)
        case .timeout(let request, _, _) where request == "CONNECT" || request == "GET_STATUS":
            return didNotAnswer(name)
        case .timeout:
            return tr("{0} did not answer in time. Try again.", name)
        case .certificateRejected:
            return tr("{0} sent a certificate that CastDeck does not accept.", name)
        case .deviceNotVerified:
            return notVerified(name)
        case .connectionLost, .notConnected, .channelNotConnected:
            return tr("The connection to {0} was lost.", name)
        case .launchFailed:
            return tr("{0} could not start its media player.", name)
        case .loadFailed(_, let code?), .mediaError(_, _, let code?):
            return explainMediaFailure(code, device: name)
        case .loadFailed, .mediaError:
            return tr("{0} could not play this media. It may be in a format the device does not play, or unreachable from it.", name)
        case .loadCancelled:
            return tr("Other media started before this one had loaded.")
        case .invalidPlayerState:
            return tr("That is not possible while nothing is loaded.")
        case .commandNotSupported:
            return command?.command.notSupported?() ?? tr("The media playing on {0} does not allow this.", name)
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

    /// A host name that resolves to no address.
    nonisolated static func notFound(_ host: String) -> String {
        tr("No device called “{0}” was found. Check the name, or enter the device's IP address.", Localization.isolatedAddress(host))
    }

    /// Nothing answered at the device's address.
    nonisolated static func didNotAnswer(_ name: String) -> String {
        tr("{0} did not answer. Check that it is on and on this network.", Localization.isolatedAddress(name))
    }

    /// Something answered at the address, but not as a Cast device speaks.
    nonisolated static func notACastDevice(_ name: String) -> String {
        tr("{0} answered, but not as a Cast device. Check the address and port.", Localization.isolatedAddress(name))
    }

    /// The device could not prove it is genuine, and only verified devices are allowed.
    nonisolated static func notVerified(_ name: String) -> String {
        tr("{0} could not prove that it is a genuine Cast device, and only verified devices are allowed.", Localization.isolatedAddress(name))
    }

    /// Posts a failure: the sentence, with the technical text behind "Details". Inside
    /// `perform` the failure is explained from the command being performed.
    func fail(_ error: any Error, device: String? = nil, retry deviceID: String? = nil) {
        let sentence: String
        if let e = error as? CastClientError {
            sentence = Self.explain(e, device: device, command: AppCommand.performing)
        } else if let e = error as? LocalMediaError {
            sentence = e.description
        } else {
            sentence = tr("Something went wrong: {0}", "\(error)")
        }
        let detail = String(describing: error)
        post(sentence, detail: detail == sentence ? nil : detail, retry: deviceID)
    }

    /// The sentence for a media failure the device explained with a Web Receiver
    /// `DetailedErrorCode`: it could not reach the media (1xx network, 2xx key server, 3xx
    /// network), the media is in a form it cannot read (1xx decode and source, 3xx invalid
    /// segments, 4xx manifests, 5xx segments), it is protected, the subtitles failed (600),
    /// or another load interrupted it (904). Other codes (900 app, 999 generic, unknown ones)
    /// get the sentence that names both likely causes.
    static func explainMediaFailure(_ code: Int, device name: String) -> String {
        switch MediaFailure(detailedErrorCode: code) {
        case .unreachable:
            return tr("{0} could not reach this media. Check that its address works and that the device's network can reach it.", name)
        case .unplayable:
            return tr("{0} could not play this media: it is in a format the device does not play.", name)
        case .protected:
            return tr("{0} could not play this media: it is protected in a way the device does not support.", name)
        case .subtitles:
            return tr("{0} could not load the subtitles of this media.", name)
        case .interrupted:
            return tr("Other media started before this one had loaded.")
        case .other:
            return tr("{0} could not play this media. It may be in a format the device does not play, or unreachable from it.", name)
        }
    }

    /// What a Web Receiver's `DetailedErrorCode` (MediaError.detailedErrorCode) says went wrong.
    enum MediaFailure: Equatable {
        case unreachable, unplayable, protected, subtitles, interrupted, other

        init(detailedErrorCode code: Int) {
            switch code {
            // MEDIA_NETWORK, MEDIAKEYS_NETWORK, NETWORK_UNKNOWN, SEGMENT_NETWORK, the HLS
            // playlist and key downloads, DASH_NETWORK, SMOOTH_NETWORK.
            case 103, 201, 300, 301, 311, 312, 313, 314, 321, 331: self = .unreachable
            // MEDIA_DECODE, MEDIA_SRC_NOT_SUPPORTED, SOURCE_BUFFER_FAILURE; HLS segments that
            // are invalid or do not parse, DASH_NO_INIT, SMOOTH_NO_MEDIA_DATA; every manifest
            // error (4xx) and SEGMENT_UNKNOWN (500).
            case 102, 104, 110, 315, 316, 322, 332, 400..<500, 500: self = .unplayable
            // MEDIAKEYS_UNKNOWN, MEDIAKEYS_UNSUPPORTED, MEDIAKEYS_WEBCRYPTO.
            case 200, 202, 203: self = .protected
            case 600: self = .subtitles  // TEXT_UNKNOWN
            case 904: self = .interrupted  // LOAD_INTERRUPTED
            // Any other network-family code is a network failure too.
            case 302..<400: self = .unreachable
            default: self = .other
            }
        }
    }
}
