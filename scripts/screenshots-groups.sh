#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Screenshots of a speaker group (issue 32) in English and Persian: a simulated group
# "Upstairs" of three speakers, each on a loopback host of its own (named by its setup API) and
# remembered by address, with one speaker's own volume changed; the devices page shows the
# session with Group volume and a slider per speaker. The Move dialog is scene 7 of
# scripts/screenshots.sh.
# Usage: scripts/screenshots-groups.sh [OUTDIR]   (default: artifacts/screenshots)
# SIZES="1280x800 360x640" (the default) picks the screen sizes; files are named
# groups-session-<size>-<lang>.png.
set -euo pipefail
source "$(dirname "$0")/screenshots-prelude.sh"

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
source Tests/System/gui/xvfb.sh
export GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=atspi
/usr/libexec/at-spi-bus-launcher --launch-immediately >/dev/null 2>&1 & pids+=($!)
sleep 0.5

for size in ${SIZES:-1280x800 360x640}; do
  start_xvfb "$size"
  for lang in ${LANGS:-en fa}; do
    SIZE=$size SHOT_LANG=$lang OUT="$out" CASTCTL="$bin/castctl" CASTDECK="$bin/castdeck" /usr/bin/python3 - <<'PY'
import json, os, subprocess, sys
sys.path.insert(0, "Tests/System/gui")
from atspi_helpers import find, wait_for
from kinds_support import Scene
env = os.environ
out, size, lang = env["OUT"], env["SIZE"], env["SHOT_LANG"]


class GroupScene(Scene):
    """The group's leader at HOST:8009, its speakers at the next three addresses."""

    def __init__(self, **kw):
        self.speakers = ["Kitchen speaker", "Living room", "Office"]
        super().__init__("speaker", "Upstairs", **kw)
        base, last = self.host.rsplit(".", 1)
        self.host = f"{base}.{min(int(last), 240)}"
        self.device = self.host
        self.member_hosts = [f"{base}.{min(int(last), 240) + i}" for i in (1, 2, 3)]
        self.args = ("--group", "Upstairs", "--members", ",".join(self.speakers), "--member-hosts", ",".join(self.member_hosts))

    def start_window(self):
        os.makedirs(os.path.join(self.dir, "config", "castdeck"), exist_ok=True)
        with open(os.path.join(self.dir, "config", "castdeck", "devices.json"), "w") as f:
            # The group has no setup API (groups do not): it is remembered with its name.
            devices = [{"host": self.host, "port": 8009, "name": "Upstairs"}] + [{"host": h, "port": 8009} for h in self.member_hosts]
            json.dump({"version": 1, "devices": devices}, f)
        super().start_window()


with GroupScene(lang=lang, size=size) as s:
    subprocess.run([env["CASTCTL"], "volume", "0.35", "--device", s.member_hosts[0]], check=True, capture_output=True, timeout=30)
    find(s.app, s.T("Group volume"), timeout=30)
    wait_for("the speakers' rows", lambda: all(s.app and find(s.app, s.T("Volume of {0}").replace("{0}", n), "slider") for n in s.speakers))
    s.shot(out, "groups-session")
PY
  done
  kill "${pids[-1]}" 2>/dev/null || true; wait "${pids[-1]}" 2>/dev/null || true; unset 'pids[-1]'
done
ls "$out"/groups-*
