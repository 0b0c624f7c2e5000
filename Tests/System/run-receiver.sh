#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# System tests of `castctl receiver` with pychromecast 14.0.10 as the foreign sender
# (real TLS on loopback, no discovery). Each test starts its own receiver with a manual
# clock and stops it with SIGTERM (Tests/System/receiver/conftest.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ -x .venv/bin/python ]] || ./scripts/setup.sh
swift build --product castctl >/dev/null
export CASTCTL="$(swift build --show-bin-path)/castctl"
work=$(mktemp -d)
first=""
cleanup() { [[ -n $first ]] && kill "$first" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
export CASTDECK_RETRY_LOG="$work/retries" CASTDECK_RECEIVER_LOG="$work/receiver.log"

# The command line itself: exit codes 2 (bad usage) and 1 (failure, one line on stderr).
expect_exit() {  # expect_exit CODE ARGS...
  local want=$1; shift
  local got=0
  timeout 20 "$CASTCTL" "$@" >"$work/out" 2>"$work/err" </dev/null || got=$?
  if [[ $got != "$want" ]]; then
    echo "FAIL: castctl $* exited $got, expected $want; stderr:" >&2; cat "$work/err" >&2; exit 1
  fi
}
expect_exit 2 receiver --no-such-option
expect_exit 2 receiver --app not-an-app-spec
expect_exit 2 receiver --uuid 1234
# --announce publishes over mDNS, so it is tested only inside the mDNS sandbox
# (Tests/System/run-discovery.sh), never here on the machine's real interfaces.
# A port that is taken: one clear line, exit 1.
"$CASTCTL" receiver --port 0 >"$work/first" 2>/dev/null &
first=$!
for _ in $(seq 100); do grep -q "^listening on " "$work/first" && break; sleep 0.1; done
taken=$(sed -n 's/^listening on .*://p' "$work/first")
[[ -n $taken ]] || { echo "FAIL: no ready line" >&2; kill "$first"; exit 1; }
expect_exit 1 receiver --port "$taken"
[[ $(wc -l <"$work/err") == 1 ]] || { echo "FAIL: expected one line on stderr" >&2; cat "$work/err" >&2; kill "$first"; exit 1; }
kill -INT "$first"
wait "$first" || { echo "FAIL: castctl receiver did not exit 0 on SIGINT" >&2; exit 1; }
first=""
echo "castctl receiver: exit codes and signals ok"

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
