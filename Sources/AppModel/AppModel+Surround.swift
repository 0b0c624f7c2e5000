// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import LocalMedia

// "Send surround sound as is", per device (Preferences → Surround Sound): for a device whose
// HDMI reaches an AV receiver or TV that decodes Dolby Digital, files cast to it keep their
// AC-3/E-AC-3 sound (LocalMedia's plan copies it) instead of having it converted to stereo.
// Off for every device unless turned on; kept in `PlaybackPreferences.surroundDevices`.
extension AppModel {
    /// Whether `deviceID` gets surround sound as it is.
    public func sendsSurround(to deviceID: String) -> Bool { surroundDevices.contains(deviceID) }

    /// Turns surround passthrough on or off for one device; the next file cast to it is planned so.
    public func setSurround(_ on: Bool, for deviceID: String) {
        guard on != sendsSurround(to: deviceID) else { return }
        if on { surroundDevices.insert(deviceID) } else { surroundDevices.remove(deviceID) }
        let stored = surroundDevices.sorted()
        if Set(playbackPreferences.surroundDevices) != surroundDevices { playbackPreferences.surroundDevices = stored }
    }

    /// The preference changed outside the window (`gsettings set`).
    public func surroundPreferencesChanged() {
        let stored = Set(playbackPreferences.surroundDevices)
        if stored != surroundDevices { surroundDevices = stored }
    }

    /// The devices Preferences offers the setting for: every device in the list, by name, with
    /// any device turned on earlier that is not in the list now (so it can be turned off).
    public var surroundChoices: [(id: String, name: String)] {
        var out = devices.filter { !$0.isGroup }.map { (id: $0.id, name: $0.friendlyName) }
        for id in surroundDevices.sorted() where !out.contains(where: { $0.id == id }) { out.append((id: id, name: id)) }
        return out
    }
}
