#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Discovery benchmark: time from process start to the first device listed, for
# `castctl discover --count 1` (avahi-client through avahi-daemon) versus pychromecast's own
# discovery (python-zeroconf), against the same simulator already announced, in the same
# mdns-sandbox run, alternating, medians. Usage: Benchmarks/discovery/run.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
sandbox="$(cd "$root/.." && pwd)/shared/scripts/mdns-sandbox"
[[ -x .venv/bin/python ]] || ./scripts/setup.sh
source Benchmarks/lib.sh
config=${CONFIG:-release}   # CONFIG=debug reuses the test build
[[ $config == release ]] && flags=("${RELEASE[@]}") || flags=(-c "$config")
swift build "${flags[@]}" --product castctl >/dev/null
export CASTCTL="$(swift build "${flags[@]}" --show-bin-path)/castctl" RUNS=${1:-9}
exec "$sandbox" .venv/bin/python "$root/Benchmarks/discovery/bench.py"
