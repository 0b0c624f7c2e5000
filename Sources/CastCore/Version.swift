// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// CastDeck's version: the one place it is written. `scripts/lint.sh` checks that meson.build's
/// project version and the newest `<release>` of the AppStream metainfo say the same, and
/// `scripts/make-deb.sh` names the package after it.
public enum CastDeckVersion {
    public static let string = "0.1.0"
}
