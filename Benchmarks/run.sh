#!/usr/bin/env bash
# Runs CastDeck's benchmarks (release builds) and prints their figures.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product castdeck-bench-imagecache && .build/release/castdeck-bench-imagecache
