#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Regenerates po/castdeck.pot from the files in POTFILES.in and merges it into every .po.
# Swift has no xgettext parser; its string literals are close enough to C's for the markers
# tr("…") and ntr("…", "…", n) (placeholders are {0}, {1}, … not printf formats).
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(grep -v '^#' po/POTFILES.in | grep -v '^$')
swift=$(echo "$files" | grep '\.swift$')
other=$(echo "$files" | grep -v '\.swift$')
xgettext --from-code=UTF-8 --package-name=castdeck -o po/castdeck-swift.pot -L C \
  --add-comments=TRANSLATORS --keyword= --keyword=tr --keyword=ntr:1,2 $swift
xgettext --from-code=UTF-8 --package-name=castdeck -o po/castdeck-data.pot $other
msgcat --use-first -o po/castdeck.pot po/castdeck-swift.pot po/castdeck-data.pot
rm po/castdeck-swift.pot po/castdeck-data.pot
shopt -s nullglob
for po in po/*.po; do msgmerge --quiet --update --backup=none --no-fuzzy-matching "$po" po/castdeck.pot; done
