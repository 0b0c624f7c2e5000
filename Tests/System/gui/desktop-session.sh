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

# Xvfb picks a free display itself (-displayfd), so parallel runs do not collide; a server that
# does not answer is replaced.
for _ in 1 2 3; do
  rm -f "$work/display"
  Xvfb -displayfd 3 -screen 0 "${1:-1024x900}x24" -nolisten tcp 3>"$work/display" >/dev/null 2>&1 & xvfb=$!
  for _ in $(seq 100); do [[ -s "$work/display" ]] && break; sleep 0.1; done
  display=":$(head -1 "$work/display" 2>/dev/null)"
  ok=""
  for _ in $(seq 50); do xdpyinfo -display "$display" >/dev/null 2>&1 && { ok=1; break; }; sleep 0.1; done
  [[ -n "$ok" ]] && break
  kill "$xvfb" 2>/dev/null || true
done
[[ -n "$ok" ]] || { echo "Xvfb did not start" >&2; exit 1; }
pids+=("$xvfb")
export DISPLAY="$display" GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=atspi
/usr/libexec/at-spi-bus-launcher --launch-immediately >/dev/null 2>&1 & pids+=($!)
sleep 0.5
