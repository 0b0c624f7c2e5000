#!/usr/bin/env bash
# meson → SwiftPM: swift build -c CONFIG --product castdeck, then copy the binary to OUTPUT.
# A release build uses the flags the benchmarks measure (build-aux/release-flags.sh: static
# runtime, start-up functions laid out together).
# Usage: swift-build.sh SWIFT SOURCE_ROOT SCRATCH_DIR CONFIG OUTPUT
set -euo pipefail
swift="$1" src="$2" scratch="$3" config="$4" output="$5"
flags=(-c "$config")
if [[ $config == release ]]; then
  source "$(dirname "$0")/release-flags.sh"
  flags=("${RELEASE[@]}")
fi
"$swift" build --package-path "$src" --scratch-path "$scratch" "${flags[@]}" --product castdeck
cp "$("$swift" build --package-path "$src" --scratch-path "$scratch" "${flags[@]}" --show-bin-path)/castdeck" "$output"
