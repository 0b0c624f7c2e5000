#!/usr/bin/env bash
# Compiles the window's GResource (Sources/CastDeckUI/castdeck.gresource.xml: .ui files, CSS,
# icons) into C source for the CastDeckResources target, which links it into castdeck.
#
# The generated file is committed, so a fresh clone builds with plain `swift build` and no
# build-time tool: SwiftPM build-tool plugins cannot feed generated C into a C target, and a
# Swift byte-array literal of the bundle compiles slowly. Run this after editing a .ui file, the
# CSS or an icon; `--check` (run by the test suite and meson test) fails when the committed file is stale.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/Sources/CastDeckResources/castdeck-resources.c"
# The window's icons as PNGs rendered from the SVGs in data/icons/hicolor (the .gresource.xml
# says why): the application icon by gdk-pixbuf, the symbolic one by gtk4-encode-symbolic-svg
# (GTK's own format for pre-rendered symbolic icons, recoloured when drawn).
icons="$root/data/icons/hicolor"
app=io.github.castdeck.CastDeck
rendered=(48x48/apps/$app.png 128x128/apps/$app.png 128x128@2/apps/$app.png
  128x128/apps/$app-symbolic.symbolic.png 128x128@2/apps/$app-symbolic.symbolic.png)
render_icons() {  # DIR: writes each of "${rendered[@]}" under DIR
  command -v gtk4-encode-symbolic-svg >/dev/null ||
    { echo "gen-resources: gtk4-encode-symbolic-svg is missing (Debian: libgtk-4-bin; scripts/setup.sh installs it)" >&2; exit 1; }
  mkdir -p "$1/48x48/apps" "$1/128x128/apps" "$1/128x128@2/apps"
  gtk4-encode-symbolic-svg -o "$1/128x128/apps" "$icons/symbolic/apps/$app-symbolic.svg" 128x128
  gtk4-encode-symbolic-svg -o "$1/128x128@2/apps" "$icons/symbolic/apps/$app-symbolic.svg" 256x256
  /usr/bin/python3 - "$icons/scalable/apps/$app.svg" "$1" "$app" <<'PY'
import sys, gi
gi.require_version("GdkPixbuf", "2.0")
from gi.repository import GdkPixbuf
svg, out, app = sys.argv[1:]
for directory, pixels in (("48x48", 48), ("128x128", 128), ("128x128@2", 256)):
    GdkPixbuf.Pixbuf.new_from_file_at_size(svg, pixels, pixels).savev(f"{out}/{directory}/apps/{app}.png", "png", [], [])
PY
}
generate() {
  glib-compile-resources --generate-source --manual-register --c-name castdeck \
    --sourcedir "$root/Sources/CastDeckUI" --sourcedir "$root/data/icons/hicolor" \
    --target "$1" "$root/Sources/CastDeckUI/castdeck.gresource.xml"
}
if [[ "${1:-}" == "--check" ]]; then
  tmp="$(mktemp)"; tmpdir="$(mktemp -d)"; trap 'rm -rf "$tmp" "$tmpdir"' EXIT
  render_icons "$tmpdir"
  for f in "${rendered[@]}"; do
    if ! cmp -s "$tmpdir/$f" "$icons/$f"; then
      echo "data/icons/hicolor/$f is out of date: run scripts/gen-resources.sh" >&2
      exit 1
    fi
  done
  generate "$tmp"
  if ! cmp -s "$tmp" "$out"; then
    echo "Sources/CastDeckResources/castdeck-resources.c is out of date: run scripts/gen-resources.sh" >&2
    exit 1
  fi
  echo "resources up to date"
else
  render_icons "$icons"
  generate "$out"
  echo "$out"
fi
