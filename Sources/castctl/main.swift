// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

// castctl: the commands live in CastCtlCommands, where tests can parse their arguments.
import CastCtlCommands

await CastCtl.execute()
