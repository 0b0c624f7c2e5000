#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Compiles what castdeck needs at run time when it runs uninstalled (swift build / swift run):
# the GSettings schema and the translations, into .build/castdeck-data/. The app finds them
# there (see Sources/CastDeckUI/DataPaths.swift); meson installs them the normal way instead.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/.build/castdeck-data"
mkdir -p "$out/schemas"
cp "$root/data/io.github.castdeck.CastDeck.gschema.xml" "$out/schemas/"
glib-compile-schemas --strict "$out/schemas"
while read -r lang; do
  [[ -z "$lang" || "$lang" == \#* ]] && continue
  mkdir -p "$out/locale/$lang/LC_MESSAGES"
  msgfmt --check -o "$out/locale/$lang/LC_MESSAGES/castdeck.mo" "$root/po/$lang.po"
done < "$root/po/LINGUAS"
echo "$out"
