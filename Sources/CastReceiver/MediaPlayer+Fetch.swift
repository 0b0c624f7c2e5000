// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol

extension MediaPlayer {
    /// The media just loaded could not be fetched or played (`--fetch-media`): the player
    /// stays in its new media session but goes IDLE with reason ERROR, as a device reports it.
    mutating func failLoad() {
        playerState = .idle
        idleReason = .error
        breakPlayback = nil
    }
}
