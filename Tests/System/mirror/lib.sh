# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# What the mirroring suites (Tests/System/run-mirror*.sh) share; sourced, not run.

# wait_for FILE PATTERN SECONDS: true once FILE has a line matching PATTERN.
wait_for() {
  for _ in $(seq $(($3 * 10))); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
  return 1
}

# field EXPR: a value of the JSON on standard input, by a Python subscript ('["decoded"]').
field() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }

# mirror_in_namespace SCRIPT TOOL...: checks the tools and Python's tkinter, builds castctl
# unless CASTCTL names one, and runs SCRIPT again with --inside in a private network namespace
# (unshare), so nft rules and servers touch nothing outside. Does not return.
mirror_in_namespace() {
  local script=$1; shift
  for tool in "$@"; do command -v "$tool" >/dev/null || { echo "FAIL: $tool is needed (scripts/setup.sh)" >&2; exit 1; }; done
  python3 -c 'import tkinter' 2>/dev/null || { echo "FAIL: python3 with tkinter is needed" >&2; exit 1; }
  if [[ -z ${CASTCTL:-} ]]; then
    swift build --product castctl >/dev/null
    CASTCTL="$(swift build --show-bin-path)/castctl"
  fi
  export CASTCTL
  if [[ $(id -u) == 0 ]]; then exec unshare -n bash ${MIRROR_TRACE:+-x} "$script" --inside; else exec unshare -rn bash ${MIRROR_TRACE:+-x} "$script" --inside; fi
}
