#!/usr/bin/env bash
# Runs every benchmark (release builds) and prints their figures. Each compares with a
# peer in the same run; read ratios and medians, not single numbers (the machines are noisy).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product castdeck-bench-protocol
echo "== protocol: decode the realistic MEDIA_STATUS frame"
"$(swift build -c release --show-bin-path)/castdeck-bench-protocol"
echo "== receiver"
swift build -c release --product castdeck-bench-receiver >/dev/null
"$(swift build -c release --show-bin-path)/castdeck-bench-receiver"
echo "== client: castctl status and SET_PLAYBACK_RATE latency vs pychromecast"
./Benchmarks/client/run.sh
echo "== gui: first frame and peak RSS vs a C GTK 4 window; CPU while paused"
./Benchmarks/gui/run.sh
echo "== discovery"
./Benchmarks/discovery/run.sh
