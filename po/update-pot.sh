#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Regenerates po/castdeck.pot from the files in POTFILES.in and merges it into every .po.
# `update-pot.sh --template-only FILE` writes the template to FILE and changes nothing else
# (scripts/check-data.sh compares it with the committed one).
# Swift has no xgettext parser; its string literals are close enough to C's for the markers
# tr("…") and ntr("…", "…", n) (placeholders are {0}, {1}, … not printf formats).
set -euo pipefail
cd "$(dirname "$0")/.."
out=po/castdeck.pot
[[ ${1:-} == --template-only ]] && out="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
files=$(grep -v '^#' po/POTFILES.in | grep -v '^$')
swift=$(echo "$files" | grep '\.swift$')
other=$(echo "$files" | grep -v '\.swift$')
xgettext --from-code=UTF-8 --package-name=castdeck -o "$tmp/swift.pot" -L C \
  --add-comments=TRANSLATORS --keyword= --keyword=tr --keyword=ntr:1,2 $swift
xgettext --from-code=UTF-8 --package-name=castdeck -o "$tmp/data.pot" $other
msgcat --use-first -o "$out" "$tmp/swift.pot" "$tmp/data.pot"
[[ $out == po/castdeck.pot ]] || exit 0
shopt -s nullglob
for po in po/*.po; do msgmerge --quiet --update --backup=none --no-fuzzy-matching "$po" po/castdeck.pot; done
