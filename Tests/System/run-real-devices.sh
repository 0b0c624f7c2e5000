#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# System test of issue 30: `castctl status` (plain and --json) against a replay receiver that
# answers with messages recorded from real devices (Tests/Fixtures/real-devices). Every capture
# is replayed; each run must exit 0 and print what the capture says (app name and status
# text, title, player state, volume). See Tests/System/real-devices/replay_status.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --product castctl >/dev/null
CASTCTL="$(swift build --show-bin-path)/castctl" python3 Tests/System/real-devices/replay_status.py
