#!/usr/bin/env bash
# meson → SwiftPM: swift build -c CONFIG --product castdeck, then copy the binary to OUTPUT.
# Usage: swift-build.sh SWIFT SOURCE_ROOT SCRATCH_DIR CONFIG OUTPUT
set -euo pipefail
swift="$1" src="$2" scratch="$3" config="$4" output="$5"
"$swift" build --package-path "$src" --scratch-path "$scratch" -c "$config" --product castdeck
cp "$("$swift" build --package-path "$src" --scratch-path "$scratch" -c "$config" --show-bin-path)/castdeck" "$output"
