#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# `make demo`: build the window and run `castdeck --demo` (the app with an in-process
# simulated Cast receiver and sample media). It needs a display: a desktop session
# (DISPLAY or WAYLAND_DISPLAY). Without one it says so and stops, unless you ask for a
# virtual one with CASTDECK_XVFB=1 (runs under xvfb-run; nothing is visible, useful to check
# that it starts; stop it with Ctrl-C).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product castdeck
./scripts/build-data.sh >/dev/null      # GSettings schema + translations for uninstalled runs
bin="$(swift build --show-bin-path)/castdeck"
if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]; then
  exec "$bin" --demo "$@"
elif [[ "${CASTDECK_XVFB:-}" == 1 ]]; then
  echo "demo: no display; running under xvfb-run (CASTDECK_XVFB=1), nothing will be visible"
  export GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=none
  exec xvfb-run -a -s "-noreset -screen 0 1280x800x24 -nolisten tcp" "$bin" --demo "$@"
else
  echo "demo: no display (neither DISPLAY nor WAYLAND_DISPLAY is set), so the window cannot open." >&2
  echo "      Run 'make demo' from a desktop session, or CASTDECK_XVFB=1 make demo to start it on a" >&2
  echo "      virtual display, or try 'scripts/screenshots.sh' for pictures of the window." >&2
  exit 1
fi
