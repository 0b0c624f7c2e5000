# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Sourced: start_xvfb WxH starts an Xvfb on a display it picks itself (-displayfd, so parallel
# runs do not collide), waits until it answers, adds it to $pids and exports DISPLAY.
# -noreset: by default Xvfb resets when its last client disconnects, and a client that
# connects during the reset is dropped before its setup is answered ("cannot open display"
# in GTK; xorg/xserver#1102). Tests connect and disconnect all the time (xdpyinfo,
# at-spi-bus-launcher, one castdeck after another), so the reset must never happen.
start_xvfb() {
  local size="${1:-1024x900}" tries ok="" fdfile
  fdfile="$(mktemp)"
  for tries in 1 2 3; do
    : >"$fdfile"
    Xvfb -displayfd 3 -noreset -screen 0 "${size}x24" -nolisten tcp 3>"$fdfile" >/dev/null 2>&1 &
    xvfb=$!
    for _ in $(seq 100); do [[ -s "$fdfile" ]] && break; sleep 0.1; done
    display=":$(head -1 "$fdfile" 2>/dev/null)"
    for _ in $(seq 50); do xdpyinfo -display "$display" >/dev/null 2>&1 && { ok=1; break; }; sleep 0.1; done
    [[ -n "$ok" ]] && break
    kill "$xvfb" 2>/dev/null || true
  done
  rm -f "$fdfile"
  [[ -n "$ok" ]] || { echo "Xvfb did not start" >&2; return 1; }
  pids+=("$xvfb")
  export DISPLAY="$display"
}
