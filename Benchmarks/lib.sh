# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Sourced by the benchmark scripts.
# Every cast starts at the start: castctl remembers where playback stopped (issue 36), which
# would make a run's casts depend on the last run's.
export CASTDECK_REMEMBER_POSITIONS=0
# Release builds use the flags of build-aux/release-flags.sh (static runtime, start-up layout).
source "$(dirname "${BASH_SOURCE[0]}")/../build-aux/release-flags.sh"
# release_window_build: builds castdeck and castctl in release with the window's data files;
# sets $bin to the directory that holds them.
release_window_build() {
  swift build "${RELEASE[@]}" --product castdeck >/dev/null
  swift build "${RELEASE[@]}" --product castctl >/dev/null
  ./scripts/build-data.sh >/dev/null
  bin="$(swift build "${RELEASE[@]}" --show-bin-path)"
}
# result AREA NAME OURS PEER PEER_NAME UNIT higher|lower — one comparison for the summary table
# (Benchmarks/summary.py collects these lines from the log of the whole run).
result() {
  python3 -c 'import json, sys; a = sys.argv[1:]; print("bench-result: " + json.dumps({"area": a[0], "name": a[1], "ours": float(a[2]), "peer": float(a[3]), "peer_name": a[4], "unit": a[5], "better": a[6]}, ensure_ascii=False))' "$@"
}
