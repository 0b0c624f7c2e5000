// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

// Move to…'s entries of the command table (CommandTable.swift): the dialog, the move it starts
// (AppModel+Move.swift), and Play on Group (AppModel+Group.swift).
extension AppCommand {
    static var moveTo: AppCommand {
        AppCommand(
            { tr("Move to…") }, keys: ["<Control>m"], enabled: { $0.canMove && $0.movePrompt != nil },
            refusal: { m in m.controlsMedia && m.moveTargets.isEmpty ? tr("There is no other device to move playback to.") : nil },
            run: { m, _ in m.movePrompt?() })
    }

    static var moveToDevice: AppCommand {
        AppCommand(
            { tr("Move") }, parameter: .int, enabled: { $0.canMove },
            run: { m, a in if let i = a.int { await m.moveToTarget(at: i) } })
    }

    static var playOnGroup: AppCommand {
        AppCommand(
            { tr("Play on Group") }, parameter: .int, enabled: { $0.canMove },
            run: { m, a in if let i = a.int { await m.playOnGroup(withTargetAt: i) } })
    }
}
