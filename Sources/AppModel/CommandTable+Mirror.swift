// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

// Screen mirroring's entries of the command table (CommandTable.swift; AppModel+Mirror.swift).
// The main menu's Cast Screen… and Cast Desktop Audio act on the connected device (the dialog
// lets another be chosen); a device row's menu names its device by its index in `devices`.
extension AppCommand {
    /// The main menu's Cast Screen…: the dialog, with the connected device chosen if it has a screen.
    static var castScreen: AppCommand {
        AppCommand(
            { tr("Cast Screen…") }, enabled: { $0.canStartMirroring && $0.mirrorPrompt != nil && !$0.screenTargets.isEmpty },
            refusal: { $0.mirrorRefusal },
            run: { m, _ in
                let here = m.connectedDevice.flatMap { m.isAudioOnly($0) ? nil : $0.id }
                m.mirrorPrompt?(here)
            })
    }

    /// A device row's Cast Screen…: the dialog with that device chosen.
    static var castScreenTo: AppCommand {
        AppCommand(
            { tr("Cast Screen…") }, parameter: .int, enabled: { $0.canStartMirroring && $0.mirrorPrompt != nil },
            refusal: { $0.mirrorRefusal },
            run: { m, a in
                guard let device = m.device(at: a.int), !m.isAudioOnly(device) else { return }
                m.mirrorPrompt?(device.id)
            })
    }

    /// The dialog's Cast: the screen to `devices[i]`, with the dialog's sound and quality.
    static var mirrorScreen: AppCommand {
        AppCommand(
            { tr("Cast") }, parameter: .int, enabled: { $0.canStartMirroring }, refusal: { $0.mirrorRefusal },
            run: { m, a in
                guard let device = m.device(at: a.int), !m.isAudioOnly(device) else { return }
                m.startMirroring(to: device, screen: true)
            })
    }

    /// The main menu's Cast Desktop Audio: the desktop's sound to the connected device.
    static var castDesktopAudio: AppCommand {
        AppCommand(
            { tr("Cast Desktop Audio") }, enabled: { $0.canStartMirroring && $0.isConnected }, refusal: { $0.mirrorRefusal },
            run: { m, _ in if let device = m.connectedDevice { m.startMirroring(to: device, screen: false) } })
    }

    /// A device row's Cast Desktop Audio.
    static var castDesktopAudioTo: AppCommand {
        AppCommand(
            { tr("Cast Desktop Audio") }, parameter: .int, enabled: { $0.canStartMirroring }, refusal: { $0.mirrorRefusal },
            run: { m, a in if let device = m.device(at: a.int) { m.startMirroring(to: device, screen: false) } })
    }

    /// The banner's Stop (and MPRIS' Stop while mirroring).
    static var stopMirroring: AppCommand {
        AppCommand({ tr("Stop Screen Casting") }, enabled: { $0.mirroring.map { !$0.isStopping } ?? false }, run: { m, _ in await m.stopMirroring() })
    }
}

extension AppModel {
    /// One mirroring at a time.
    var canStartMirroring: Bool { mirroring == nil }

    var mirrorRefusal: String? {
        mirroring.map { tr("{0} first: one screen or sound is cast at a time.", $0.text) }
    }

    func device(at index: Int?) -> DeviceInfo? {
        guard let index, devices.indices.contains(index) else { return nil }
        return devices[index]
    }
}
