#!/usr/bin/env bash
# `make demo`: build and run the main job. With the window built, that is
# `castdeck --demo` (the app with an in-process simulated receiver). Until then it runs
# what exists, and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
products=$(swift package describe --type json 2>/dev/null | python3 -c 'import json,sys; print(" ".join(p["name"] for p in json.load(sys.stdin)["products"]))')
if [[ " $products " == *" castdeck "* ]]; then
  swift build --product castdeck
  exec "$(swift build --show-bin-path)/castdeck" --demo "$@"
elif [[ " $products " == *" castctl "* ]]; then
  echo "demo: the window is not built yet; running the simulated receiver instead (Ctrl-C stops it)"
  swift build --product castctl
  exec "$(swift build --show-bin-path)/castctl" receiver --name "CastDeck Demo" -v "$@"
else
  echo "demo: neither the window nor the simulator exists yet; decoding the protocol fixtures instead"
  swift build --product castproto-fuzz
  "$(swift build --show-bin-path)/castproto-fuzz" Tests/CastProtocolTests/Fixtures/*/*.json
fi
