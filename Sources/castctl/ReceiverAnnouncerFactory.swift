// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastReceiver

/// Where `castctl receiver --announce` gets its mDNS publisher. The discovery module
/// replaces the body with its `ReceiverAnnouncer` conformance; until then there is none
/// and `--announce` fails with a clear message instead of pretending to announce.
enum ReceiverAnnouncerFactory {
    static func make() -> (any ReceiverAnnouncer)? {
        nil
    }
}
