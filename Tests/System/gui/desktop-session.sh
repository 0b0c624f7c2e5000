# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Sourced by the system tests that drive the real window (run-gui.sh, run-mpris.sh), inside
# their dbus-run-session: a work directory and a process list cleaned up on exit, Xvfb of the
# size given as $1 (default 1024x900), and the AT-SPI bus, with GTK set up to use both.
work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

source "$(dirname "${BASH_SOURCE[0]}")/xvfb.sh"
start_xvfb "${1:-1024x900}" || exit 1
export GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=atspi
/usr/libexec/at-spi-bus-launcher --launch-immediately >/dev/null 2>&1 & pids+=($!)
sleep 0.5
