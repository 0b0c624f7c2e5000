#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# CastClient benchmarks against one running `castctl receiver`, compared with pychromecast
# in the same run:
#  1. whole process: `castctl status --json` vs an equivalent pychromecast script (median of N runs each),
#     and vs `castdeck-bench-client status` (the same CastClient calls with no command line)
#  2. SET_PLAYBACK_RATE command-to-acknowledged-status latency p50/p99, in-process vs pychromecast,
#     and against twice the PING → PONG round trip of the same receiver; the session on Swift's
#     global pool (the library's default) and on a network thread (withNetworkThreadExecution,
#     what castctl's device commands use)
# Both also against this machine's floor: Benchmarks/client/tls-floor.c does the same wire work
# in C with OpenSSL (one handshake and the two status requests; the same SET_PLAYBACK_RATE
# commands; PING → PONG round trips).
# Usage: Benchmarks/client/run.sh [RUNS] [ITERATIONS]   (CONFIG=debug for a debug build)
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-30}
ITER=${2:-2000}
CONFIG=${CONFIG:-release}
[[ -x .venv/bin/python ]] || ./scripts/setup.sh
source Benchmarks/lib.sh
[[ $CONFIG == release ]] && flags=("${RELEASE[@]}") || flags=(-c "$CONFIG")
swift build "${flags[@]}" --product castctl >/dev/null
swift build "${flags[@]}" --product castdeck-bench-client >/dev/null
BIN=$(swift build "${flags[@]}" --show-bin-path)
work=$(mktemp -d)
cc -O2 -o "$work/tls-floor" Benchmarks/client/tls-floor.c -lssl -lcrypto
rpid=""
cleanup() { [[ -n $rpid ]] && kill "$rpid" 2>/dev/null && wait "$rpid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
export XDG_STATE_HOME="$work/state"
"$BIN/castctl" receiver --port 0 >"$work/out" 2>"$work/log" &
rpid=$!
for _ in $(seq 100); do grep -qs "^listening on " "$work/out" && break; sleep 0.05; done
DEVICE=$(sed -n 's/^listening on //p' "$work/out")
[[ -n $DEVICE ]] || { echo "the receiver did not start"; cat "$work/log"; exit 1; }
"$BIN/castctl" cast https://example.com/bench.mp4 --title Bench --device "$DEVICE" >/dev/null

.venv/bin/python - "$BIN/castctl" "$DEVICE" "$RUNS" "$work/tls-floor" "$BIN/castdeck-bench-client" <<'PY'
import json, statistics, subprocess, sys, time
castctl, device, runs, floor, lean = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
host, port = device.rsplit(":", 1)
def timed(cmd):
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return (time.perf_counter() - t0) * 1000
peers = {
    "castctl status --json": [castctl, "status", "--json", "--device", device],
    "pychromecast script": [".venv/bin/python", "Benchmarks/client/pychromecast_status.py", device],
    "C + OpenSSL floor": [floor, "status", host, port],
    # The same CastClient calls without castctl's command line: the difference is what the CLI adds.
    "CastClient, no CLI": [lean, "status", device],
}
for cmd in peers.values():
    timed(cmd)  # warm the page cache
results = {name: [] for name in peers}
for _ in range(runs):  # interleaved, so drift hits both alike
    for name, cmd in peers.items():
        results[name].append(timed(cmd))
med = {name: statistics.median(v) for name, v in results.items()}
print(f"== client 1: whole-process status, median of {runs} runs each")
for name, m in med.items():
    print(f"  {name:24s} {m:8.1f} ms  (min {min(results[name]):.1f}, max {max(results[name]):.1f})")
print(f"  ratio pychromecast / castctl: {med['pychromecast script'] / med['castctl status --json']:.2f}x")
def result(name, ours, peer, peer_name, unit, better):
    print("bench-result: " + json.dumps({"area": "client", "name": name, "ours": ours, "peer": peer,
                                          "peer_name": peer_name, "unit": unit, "better": better}))
result("castctl status --json, whole process", med["castctl status --json"], med["pychromecast script"],
       "pychromecast script", "ms", "lower")
result("castctl status --json, whole process", med["castctl status --json"], med["C + OpenSSL floor"],
       "C + OpenSSL, same wire work (floor)", "ms", "lower")
result("castctl status --json, whole process", med["castctl status --json"], med["CastClient, no CLI"],
       "the same CastClient calls without the command line (castdeck-bench-client status)", "ms", "lower")
PY

# Each peer runs ROUNDS times, interleaved so that drift on the machine hits all of them alike;
# each run is ITER samples, and a peer's figure is the median over its rounds of that run's
# percentile (one run of 2,000 samples moved by a quarter between runs at p99).
ROUNDS=${ROUNDS:-5}
echo "== client 2: SET_PLAYBACK_RATE -> acknowledged MEDIA_STATUS latency, $ROUNDS rounds of $ITER samples each"
runs="$work/rate-runs"
: >"$runs"
for round in $(seq "$ROUNDS"); do
  echo "pool $("$BIN/castdeck-bench-client" "$DEVICE" "$ITER")" >>"$runs"
  echo "pychromecast $(.venv/bin/python Benchmarks/client/pychromecast_rate.py "$DEVICE" "$ITER")" >>"$runs"
  # The same session run on a network thread (withNetworkThreadExecution), as castctl does.
  echo "thread $("$BIN/castdeck-bench-client" "$DEVICE" "$ITER" network-thread)" >>"$runs"
  echo "ping $("$work/tls-floor" ping "${DEVICE%:*}" "${DEVICE##*:}" "$ITER")" >>"$runs"
  echo "floor $("$work/tls-floor" rate "${DEVICE%:*}" "${DEVICE##*:}" "$ITER")" >>"$runs"
  echo "  round $round of $ROUNDS done"
done
.venv/bin/python - "$runs" "$ITER" <<'PY'
import json, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    kind, rest = line.split(" ", 1)
    if kind in ("ping", "floor"):
        f = rest.split()  # "p50 X p99 Y ..." as tls-floor prints it
        runs.setdefault(kind, []).append((float(f[1]), float(f[3])))
    else:
        r = json.loads(rest)
        runs.setdefault(kind, []).append((r["p50_ms"], r["p99_ms"]))
iterations = int(sys.argv[2])
med = {k: (statistics.median(x for x, _ in v), statistics.median(y for _, y in v)) for k, v in runs.items()}
rounds = len(runs["pool"])
names = {"pool": "castdeck", "thread": "castdeck (network thread)", "pychromecast": "pychromecast",
         "floor": "C + OpenSSL", "ping": "PING → PONG"}
for k in ("pool", "thread", "pychromecast", "floor", "ping"):
    each = ", ".join(f"{x:.3f}/{y:.3f}" for x, y in runs[k])
    print(f"  {names[k]:26s} p50 {med[k][0]:7.3f} ms   p99 {med[k][1]:7.3f} ms   (median of {rounds} rounds of {iterations}; p50/p99 each round: {each})")
print("  (C + OpenSSL: the same command with no client work, the floor; PING → PONG: C + OpenSSL, same receiver)")
a, n, b = med["pool"], med["thread"], med["pychromecast"]
ping50, c50, c99 = med["ping"][0], med["floor"][0], med["floor"][1]
print(f"  ratio pychromecast / castdeck: p50 {b[0] / a[0]:.2f}x, p99 {b[1] / a[1]:.2f}x; castdeck p50 / PING p50: {a[0] / ping50:.2f}")
samples = f"median of {rounds} rounds × {iterations:,} samples"
def result(name, ours, peer, peer_name, better="lower"):
    print("bench-result: " + json.dumps({"area": "client", "name": name, "ours": ours, "peer": peer,
                                          "peer_name": peer_name, "unit": "ms", "better": better,
                                          "samples": samples}, ensure_ascii=False))
result("SET_PLAYBACK_RATE → acknowledged status, p50", a[0], b[0], "pychromecast")
result("SET_PLAYBACK_RATE → acknowledged status, p99", a[1], b[1], "pychromecast")
result("SET_PLAYBACK_RATE → acknowledged status, p50", a[0], 2 * ping50, "2 × PING → PONG (C + OpenSSL)")
result("SET_PLAYBACK_RATE → acknowledged status, p50", a[0], c50, "C + OpenSSL, same command (floor)")
result("SET_PLAYBACK_RATE → acknowledged status, p99", a[1], c99, "C + OpenSSL, same command (floor)")
print(f"  on a network thread: p50 {b[0] / n[0]:.2f}x, p99 {b[1] / n[1]:.2f}x pychromecast; p50 / PING p50: {n[0] / ping50:.2f}")
result("SET_PLAYBACK_RATE → acknowledged status, p50, session on a network thread", n[0], b[0], "pychromecast")
result("SET_PLAYBACK_RATE → acknowledged status, p99, session on a network thread", n[1], b[1], "pychromecast")
result("SET_PLAYBACK_RATE → acknowledged status, p50, session on a network thread", n[0], 2 * ping50, "2 × PING → PONG (C + OpenSSL)")
PY
