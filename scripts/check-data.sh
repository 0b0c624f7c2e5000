#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# check-data.sh [CASTCTL]: the checks of everything that is not Swift, run by `make check`:
#   - translations: every .po in po/LINGUAS passes `msgfmt --check`, has every message of
#     po/castdeck.pot (msgcmp), and LINGUAS names every .po; the .pot holds exactly the
#     messages the sources mark today (po/update-pot.sh refreshes it)
#   - the desktop file and the AppStream metainfo, merged with every translation as meson
#     installs them: desktop-file-validate and `appstreamcli validate --strict`
#   - the GSettings schema (glib-compile-schemas --strict)
#   - the manual pages: castdeck(1) and castctl(1) (made from CASTCTL) without groff warnings
#   - the Flatpak manifest (build-aux/flatpak/manifest.py --check)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
castctl="${1:-$root/.build/debug/castctl}"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "check-data: $*" >&2; fail=1; }

# Translations.
langs="$(grep -v '^#' po/LINGUAS | tr -s ' \n' '\n' | grep -v '^$' | sort)"
files="$(cd po && ls ./*.po | sed 's|^\./||; s|\.po$||' | sort)"
[[ $langs == "$files" ]] || bad "po/LINGUAS ($(echo $langs)) and the .po files ($(echo $files)) differ"
for lang in $langs; do
  msgfmt --check -o /dev/null "po/$lang.po" 2>"$tmp/msgfmt" || bad "po/$lang.po: $(cat "$tmp/msgfmt")"
  msgcmp "po/$lang.po" po/castdeck.pot 2>"$tmp/msgcmp" || bad "po/$lang.po lacks messages of castdeck.pot: $(head -5 "$tmp/msgcmp")"
  untranslated="$(msgattrib --untranslated --no-obsolete "po/$lang.po" | grep -c '^msgid ' || true)"
  (( untranslated <= 1 )) || bad "po/$lang.po has $((untranslated - 1)) untranslated messages"
  fuzzy="$(msgattrib --only-fuzzy --no-obsolete "po/$lang.po" | grep -c '^msgid ' || true)"
  (( fuzzy == 0 )) || bad "po/$lang.po has $((fuzzy - 1)) fuzzy messages"
done
# The template against the sources: the same messages (locations may move).
po/update-pot.sh --template-only "$tmp/fresh.pot" 2>"$tmp/xgettext" || bad "po/update-pot.sh could not make the template: $(cat "$tmp/xgettext")"
ids() { msgcat --no-location --no-wrap --sort-output "$1" | grep -E '^msgid(_plural)? ' | sort; }
if ! diff <(ids "$tmp/fresh.pot") <(ids po/castdeck.pot) >"$tmp/potdiff"; then
  bad "po/castdeck.pot is not current (run po/update-pot.sh): $(grep '^[<>]' "$tmp/potdiff" | head -5 | tr '\n' ' ')"
fi
# Every file that marks strings is in POTFILES.in.
for f in $(grep -rlE '^[^/"]*\bn?tr\("' Sources --include=*.swift) $(grep -rl 'translatable="yes"' Sources --include=*.ui); do
  grep -qx "$f" po/POTFILES.in || bad "$f marks translatable strings but is not in po/POTFILES.in"
done

# Desktop file and metainfo as installed (merged with the translations).
app=io.github.castdeck.CastDeck
msgfmt --desktop --template "data/$app.desktop.in" -d po -o "$tmp/$app.desktop"
desktop-file-validate "$tmp/$app.desktop" || bad "desktop-file-validate failed"
msgfmt --xml --template "data/$app.metainfo.xml.in" -d po -o "$tmp/$app.metainfo.xml"
appstreamcli validate --strict --no-net "$tmp/$app.metainfo.xml" >"$tmp/appstream" 2>&1 || { cat "$tmp/appstream" >&2; bad "appstreamcli validate --strict failed"; }
for shot in $(grep -o 'data/screenshots/[^<]*' "data/$app.metainfo.xml.in"); do
  [[ -f $shot ]] || bad "the metainfo names $shot, which is not in the repository"
done
glib-compile-schemas --strict --dry-run data || bad "the GSettings schema does not compile"

# Manual pages.
groff -man -ww -z data/castdeck.1 2>"$tmp/groff" && [[ ! -s $tmp/groff ]] || bad "castdeck.1: $(cat "$tmp/groff")"
if [[ -x $castctl ]]; then
  python3 build-aux/gen-manpage.py "$castctl" "$tmp/castctl.1"
  groff -man -ww -z "$tmp/castctl.1" 2>"$tmp/groff" && [[ ! -s $tmp/groff ]] || bad "castctl.1: $(head -5 "$tmp/groff")"
else
  bad "no castctl at $castctl to make castctl(1) from"
fi

# Flatpak.
py=python3; [[ -x .venv/bin/python ]] && py=.venv/bin/python
"$py" build-aux/flatpak/manifest.py --check || fail=1
if command -v flatpak-builder >/dev/null; then
  flatpak-builder --show-manifest "$app.json" >/dev/null 2>"$tmp/fb" || bad "flatpak-builder cannot read $app.json: $(cat "$tmp/fb")"
fi

((fail == 0)) && echo "check-data: translations ($(echo $langs | wc -w) languages), desktop file, metainfo, schema, man pages and Flatpak manifest are in order"
exit $fail
