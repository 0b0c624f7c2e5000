#!/usr/bin/env bash
# Runs every CastDeck benchmark in release mode; each prints its own figures and
# compares with a peer measured in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product castdeck-bench-receiver >/dev/null
"$(swift build -c release --show-bin-path)/castdeck-bench-receiver"
