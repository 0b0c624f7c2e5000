#!/usr/bin/env bash
# System tests of `castctl receiver` with pychromecast 14.0.10 as the foreign sender
# (real TLS on loopback, no discovery). Each test starts its own receiver with a manual
# clock and stops it with SIGTERM (Tests/System/receiver/conftest.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ -x .venv/bin/python ]] || ./scripts/setup.sh
swift build --product castctl >/dev/null
export CASTCTL="$(swift build --show-bin-path)/castctl"
work=$(mktemp -d)
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
export CASTDECK_RETRY_LOG="$work/retries" CASTDECK_RECEIVER_LOG="$work/receiver.log"
status=0
.venv/bin/python -m pytest -q -p no:cacheprovider Tests/System/receiver "$@" || status=$?
if [[ -s $CASTDECK_RETRY_LOG ]]; then
  echo "note: pychromecast needed the allowed reconnect/retry of the first LOAD:"
  sed 's/^/  /' "$CASTDECK_RETRY_LOG"
fi
if ((status != 0)); then
  echo "--- receiver log (last 60 lines)"; tail -n 60 "$CASTDECK_RECEIVER_LOG" || true
fi
exit $status
