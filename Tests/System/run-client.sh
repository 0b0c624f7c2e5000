#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# System tests of CastClient through castctl, with pychromecast 14.0.10 as a second sender,
# all against `castctl receiver` over real TLS on loopback (no discovery).
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ -x .venv/bin/python ]] || ./scripts/setup.sh
swift build --product castctl >/dev/null
export CASTCTL="$(swift build --show-bin-path)/castctl"
work=$(mktemp -d)
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
export CASTDECK_RECEIVER_LOG="${CASTDECK_RECEIVER_LOG:-$work/receiver.log}" CASTDECK_TEST_STATE="$work/state"
status=0
.venv/bin/python -m pytest -q -p no:cacheprovider Tests/System/client "$@" || status=$?
if ((status != 0)); then
  echo "--- receiver log (last 60 lines)"; tail -n 60 "$CASTDECK_RECEIVER_LOG" || true
fi
exit $status
