# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Sourced first by the screenshot scripts of one part of the window (screenshots-mini-player.sh,
# screenshots-resume.sh), with their arguments: sets $root, $out (the folder given, default
# artifacts/screenshots, made absolute) and $bin, builds castdeck and castctl with the window's
# data files, and runs the calling script again inside a session bus of its own.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/artifacts/screenshots}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cd "$root"
swift build --product castdeck >/dev/null
swift build --product castctl >/dev/null
./scripts/build-data.sh >/dev/null
bin="$(swift build --show-bin-path)"

if [[ -z "${CASTDECK_SHOTS_INNER:-}" ]]; then
  export CASTDECK_SHOTS_INNER=1
  exec dbus-run-session -- "$0" "$out"
fi
