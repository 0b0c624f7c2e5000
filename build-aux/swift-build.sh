#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# meson → SwiftPM: swift build -c CONFIG --product P for each of castdeck and castctl, then copy
# both binaries to OUTDIR. A release build uses the flags the benchmarks measure
# (build-aux/release-flags.sh: static Swift runtime, start-up functions laid out together).
# Usage: swift-build.sh SWIFT SOURCE_ROOT SCRATCH_DIR CONFIG OUTDIR
set -euo pipefail
swift="$1" src="$2" scratch="$3" config="$4" outdir="$5"
flags=(-c "$config")
if [[ $config == release ]]; then
  source "$(dirname "$0")/release-flags.sh"
  flags=("${RELEASE[@]}")
fi
bin="$("$swift" build --package-path "$src" --scratch-path "$scratch" "${flags[@]}" --show-bin-path)"
for product in castdeck castctl; do
  "$swift" build --package-path "$src" --scratch-path "$scratch" "${flags[@]}" --product "$product"
  cp "$bin/$product" "$outdir/$product"
done
