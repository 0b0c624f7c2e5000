# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Sourced by the sound tests and the benchmark: a private PulseAudio server, without a desktop
# session, in its own runtime directory, whose default output is a null sink (so the default
# output's monitor, what `castctl mirror --audio` sends, hears whatever is played to it).
# start_pulse DIR: starts it (DIR is its runtime directory), exports XDG_RUNTIME_DIR and
# PULSE_SERVER for everything started afterwards, and sets pulse_pid.
start_pulse() {
  local dir=$1
  mkdir -p "$dir"
  cat >"$dir/castdeck.pa" <<'PA'
load-module module-null-sink sink_name=castdeck_null rate=48000 channels=2
set-default-sink castdeck_null
load-module module-native-protocol-unix
PA
  XDG_RUNTIME_DIR=$dir HOME=$dir pulseaudio --daemonize=no --exit-idle-time=-1 -n -F "$dir/castdeck.pa" --use-pid-file=no \
    >"$dir/pulseaudio.log" 2>&1 &
  pulse_pid=$!
  export XDG_RUNTIME_DIR=$dir PULSE_SERVER="unix:$dir/pulse/native"
  for _ in $(seq 50); do pactl info >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "FAIL: the private PulseAudio did not start: $(tail -n 3 "$dir/pulseaudio.log")" >&2
  return 1
}
