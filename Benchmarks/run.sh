#!/usr/bin/env bash
# Runs every benchmark; each prints its figures and compares with a peer in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "=== discovery"; ./Benchmarks/discovery/run.sh
