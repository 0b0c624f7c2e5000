#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Regenerates build-aux/startup-order.txt: the functions of our release binaries that run
# before the window's first frame and during a whole `castctl status` / `rate` / `pause`,
# listed for the linker (`--symbol-ordering-file`, see build-aux/release-flags.sh). Placed side by
# side, they fill a few dense pages instead of being spread over 30 MB of text, so a start
# faults in and keeps resident far fewer pages (docs/performance.md, "Start-up layout").
# Run it after large changes to start-up code; an outdated list still links (names no longer
# in the binary are skipped), it only clusters less.
# Needs valgrind (callgrind records every function executed, exactly) and Xvfb.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
release_window_build
work="$(mktemp -d)"
rpid=""
cleanup() { [[ -n $rpid ]] && kill "$rpid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
# valgrind cannot read the DWARF of these binaries; the symbol table is all it needs.
objcopy --strip-debug "$bin/castdeck" "$work/castdeck"
objcopy --strip-debug "$bin/castctl" "$work/castctl"
export XDG_STATE_HOME="$work/state" XDG_CACHE_HOME="$work/cache" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data"
grind() { valgrind --tool=callgrind --demangle=no --compress-strings=no --compress-pos=no \
  --callgrind-out-file="$work/cg.$1.%p" "${@:2}" >/dev/null 2>&1; }

"$bin/castctl" receiver --port 0 >"$work/rx.out" 2>/dev/null & rpid=$!
for _ in $(seq 100); do grep -qs "^listening on " "$work/rx.out" && break; sleep 0.05; done
device=$(sed -n 's/^listening on //p' "$work/rx.out")
[[ -n $device ]] || { echo "gen-startup-order: the receiver did not start" >&2; exit 1; }
"$bin/castctl" cast https://example.com/order.mp4 --title Order --device "$device" >/dev/null
grind castctl "$work/castctl" status --json --device "$device"
grind castctl "$work/castctl" rate 1.5 --device "$device"
grind castctl "$work/castctl" pause --device "$device"

CASTDECK_EXIT_AFTER_FIRST_FRAME=1 CASTDECK_NO_DISCOVERY=1 GDK_BACKEND=x11 GSK_RENDERER=cairo \
  GTK_A11Y=none GSETTINGS_BACKEND=memory dbus-run-session -- \
  xvfb-run -a -s "-noreset -screen 0 1280x800x24 -nolisten tcp" \
  bash -c "$(declare -f grind); work='$work'; grind castdeck '$work/castdeck'"

# Window functions first (the measured start), then the command-line ones it did not run.
python3 - "$work" >build-aux/startup-order.txt <<'PY'
import glob, re, sys
work = sys.argv[1]
# Sorted within each group, so that regenerating gives a small diff.
seen, groups = set(), []
for who in ("castdeck", "castctl"):
    names = set()
    for path in sorted(glob.glob(f"{work}/cg.{who}.*")):
        in_binary = False
        for line in open(path, errors="replace"):
            if line.startswith("ob="):
                in_binary = line[3:].strip().startswith(work)
            elif line.startswith("fn=") and in_binary:
                name = re.sub(r"'\d+$", "", line[3:].strip())  # callgrind's recursion marker
                if name and not name.startswith("0x"):
                    names.add(name)
    groups += sorted(names - seen)
    seen |= names
print("\n".join(groups))
PY
echo "gen-startup-order: $(wc -l <build-aux/startup-order.txt) functions in build-aux/startup-order.txt"
