#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# format.sh: formats every Swift source with `swift format` and the checked-in .swift-format
# (4 spaces, 160 columns, the rules the tree follows). Generated code is left as its generator
# writes it. `scripts/format.sh --check` only reports (scripts/lint.sh runs it).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files -co --exclude-standard 'Sources/*.swift' 'Tests/*.swift' 'Benchmarks/*.swift' 'Fuzz/*.swift' \
  | grep -v -e '\.pb\.swift$' -e '\.generated\.swift$' | while read -r f; do [[ -f $f ]] && echo "$f"; done)
if [[ ${1:-} == --check ]]; then
  exec swift format lint --strict --configuration .swift-format "${files[@]}"
fi
exec swift format format --in-place --configuration .swift-format "${files[@]}"
