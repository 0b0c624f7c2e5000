// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

extension AppModel.PlaybackPhase {
    /// Whether the media is over (finished, stopped or failed): the surfaces offer Play Again.
    public var isOver: Bool { self == .finished || self == .stopped || self == .failed }

    /// How the media ended, in a word or two ("Finished"); nil while it is not over. The one
    /// wording for the expanded controller, the mini controller, the mini player and the
    /// session row.
    public var endedText: String? {
        switch self {
        case .finished: tr("Finished")
        case .stopped: tr("Stopped")
        case .failed: tr("Could not play")
        default: nil
        }
    }
}
