#!/usr/bin/env bash
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

echo "== client 2: SET_PLAYBACK_RATE -> acknowledged MEDIA_STATUS latency, $ITER samples each"
swift_json=$("$BIN/castdeck-bench-client" "$DEVICE" "$ITER")
py_json=$(.venv/bin/python Benchmarks/client/pychromecast_rate.py "$DEVICE" "$ITER")
# The same session run on a network thread (withNetworkThreadExecution), as castctl does.
swift_nt_json=$("$BIN/castdeck-bench-client" "$DEVICE" "$ITER" network-thread)
ping=$("$work/tls-floor" ping "${DEVICE%:*}" "${DEVICE##*:}" "$ITER")
crate=$("$work/tls-floor" rate "${DEVICE%:*}" "${DEVICE##*:}" "$ITER")
.venv/bin/python - "$swift_json" "$py_json" "$ping" "$crate" "$swift_nt_json" <<'PY'
import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
p, c = sys.argv[3].split(), sys.argv[4].split()
n = json.loads(sys.argv[5])
ping50, ping99 = float(p[1]), float(p[3])
c50, c99 = float(c[1]), float(c[3])
for r in (a, n, b):
    print(f"  {r['peer']:14s} p50 {r['p50_ms']:7.3f} ms   p99 {r['p99_ms']:7.3f} ms   ({r['iterations']} samples)")
print(f"  C + OpenSSL    p50 {c50:7.3f} ms   p99 {c99:7.3f} ms   (the same command, no client work: the floor)")
print(f"  PING → PONG    p50 {ping50:7.3f} ms   p99 {ping99:7.3f} ms   (C + OpenSSL, same receiver)")
print(f"  ratio pychromecast / castdeck: p50 {b['p50_ms'] / a['p50_ms']:.2f}x, p99 {b['p99_ms'] / a['p99_ms']:.2f}x;"
      f" castdeck p50 / PING p50: {a['p50_ms'] / ping50:.2f}")
def result(name, ours, peer, peer_name, better="lower"):
    print("bench-result: " + json.dumps({"area": "client", "name": name, "ours": ours, "peer": peer,
                                          "peer_name": peer_name, "unit": "ms", "better": better}))
result("SET_PLAYBACK_RATE → acknowledged status, p50", a["p50_ms"], b["p50_ms"], "pychromecast")
result("SET_PLAYBACK_RATE → acknowledged status, p99", a["p99_ms"], b["p99_ms"], "pychromecast")
result("SET_PLAYBACK_RATE → acknowledged status, p50", a["p50_ms"], 2 * ping50, "2 × PING → PONG (C + OpenSSL)")
result("SET_PLAYBACK_RATE → acknowledged status, p50", a["p50_ms"], c50, "C + OpenSSL, same command (floor)")
result("SET_PLAYBACK_RATE → acknowledged status, p99", a["p99_ms"], c99, "C + OpenSSL, same command (floor)")
print(f"  on a network thread: p50 {b['p50_ms'] / n['p50_ms']:.2f}x, p99 {b['p99_ms'] / n['p99_ms']:.2f}x pychromecast;"
      f" p50 / PING p50: {n['p50_ms'] / ping50:.2f}")
result("SET_PLAYBACK_RATE → acknowledged status, p50, session on a network thread", n["p50_ms"], b["p50_ms"], "pychromecast")
result("SET_PLAYBACK_RATE → acknowledged status, p99, session on a network thread", n["p99_ms"], b["p99_ms"], "pychromecast")
result("SET_PLAYBACK_RATE → acknowledged status, p50, session on a network thread", n["p50_ms"], 2 * ping50, "2 × PING → PONG (C + OpenSSL)")
PY
