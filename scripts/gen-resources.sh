#!/usr/bin/env bash
# Compiles the window's GResource (Sources/CastDeckUI/castdeck.gresource.xml: .ui files, CSS,
# icons) into C source for the CastDeckResources target, which links it into castdeck.
#
# The generated file is committed, so a fresh clone builds with plain `swift build` and no
# build-time tool: SwiftPM build-tool plugins cannot feed generated C into a C target, and a
# Swift byte-array literal of the bundle compiles slowly. Run this after editing a .ui file or
# the CSS; `--check` (run by the test suite and meson test) fails when the committed file is stale.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/Sources/CastDeckResources/castdeck-resources.c"
generate() {
  glib-compile-resources --generate-source --manual-register --c-name castdeck \
    --sourcedir "$root/Sources/CastDeckUI" --sourcedir "$root/data/icons/hicolor" \
    --target "$1" "$root/Sources/CastDeckUI/castdeck.gresource.xml"
}
if [[ "${1:-}" == "--check" ]]; then
  tmp="$(mktemp)"; trap 'rm -f "$tmp"' EXIT
  generate "$tmp"
  if ! cmp -s "$tmp" "$out"; then
    echo "Sources/CastDeckResources/castdeck-resources.c is out of date: run scripts/gen-resources.sh" >&2
    exit 1
  fi
  echo "resources up to date"
else
  generate "$out"
  echo "$out"
fi
