#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Runs every Tests/System/run-*.sh in name order; each is one area's system test suite
# (pychromecast against the simulator, the mDNS sandbox, the GUI under Xvfb, ...).
# Exits non-zero if any of them fails, after running them all.
set -uo pipefail
cd "$(dirname "$0")/.."
failed=()
shopt -s nullglob
for t in Tests/System/run-*.sh; do
  echo "=== $t"
  if ! bash "$t"; then failed+=("$t"); fi
done
if ((${#failed[@]})); then
  echo "system tests failed: ${failed[*]}" >&2
  exit 1
fi
echo "system tests: all passed"
