#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Moving playback between two devices (issue 32): `castctl move` against the naive transfer a
# pychromecast script does (read the status, play_media on the target, stop the source), in the
# same run, between two `castctl receiver`s on loopback. Benchmarks/move/bench.py says what is
# measured and how.
#   Benchmarks/move/run.sh [MOVES]   (default 10; CONFIG=debug for a debug build)
set -euo pipefail
cd "$(dirname "$0")/../.."
MOVES=${1:-10}
CONFIG=${CONFIG:-release}
[[ -x .venv/bin/python ]] || ./scripts/setup.sh
source Benchmarks/lib.sh
[[ $CONFIG == release ]] && flags=("${RELEASE[@]}") || flags=(-c "$CONFIG")
swift build "${flags[@]}" --product castctl >/dev/null
BIN=$(swift build "${flags[@]}" --show-bin-path)
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
export XDG_STATE_HOME="$work/state"
for side in source target; do
  "$BIN/castctl" receiver --port 0 --name "Bench $side" >"$work/$side.out" 2>"$work/$side.log" & pids+=($!)
done
for side in source target; do
  for _ in $(seq 100); do grep -qs "^listening on " "$work/$side.out" && break; sleep 0.05; done
done
SOURCE=$(sed -n 's/^listening on //p' "$work/source.out")
TARGET=$(sed -n 's/^listening on //p' "$work/target.out")
[[ -n $SOURCE && -n $TARGET ]] || { echo "the receivers did not start"; cat "$work"/*.log; exit 1; }
.venv/bin/python Benchmarks/move/bench.py "$BIN/castctl" "$SOURCE" "$TARGET" "$MOVES"
