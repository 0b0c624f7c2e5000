#!/usr/bin/env bash
# meson → SwiftPM: swift build -c CONFIG --product castdeck, then copy the binary to OUTPUT.
# A release build links the Swift runtime and Foundation statically, as the benchmarks do
# (Benchmarks/lib.sh): the window's first frame comes sooner and its peak RSS is lower
# (docs/gui.md, "Start-up").
# Usage: swift-build.sh SWIFT SOURCE_ROOT SCRATCH_DIR CONFIG OUTPUT
set -euo pipefail
swift="$1" src="$2" scratch="$3" config="$4" output="$5"
flags=(-c "$config")
[[ $config == release ]] && flags+=(--static-swift-stdlib)
"$swift" build --package-path "$src" --scratch-path "$scratch" "${flags[@]}" --product castdeck
cp "$("$swift" build --package-path "$src" --scratch-path "$scratch" "${flags[@]}" --show-bin-path)/castdeck" "$output"
