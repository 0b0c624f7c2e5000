#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Runs inside mdns-sandbox (see ../run-discovery.sh). Exits non-zero if any part fails.
set -uo pipefail
cd "$(dirname "$0")/../../.."
[[ -n ${MDNS_SANDBOX_HOST:-} ]] || { echo "inside.sh: not in the mDNS sandbox" >&2; exit 2; }
status=0
echo "--- CastDiscovery Swift tests against the sandbox's avahi-daemon"
log=$(mktemp)
if swift test --skip-build --filter CastDiscoveryTests >"$log" 2>&1; then
  grep -E "Executed .* tests" "$log" | tail -1
else
  cat "$log"; echo "CastDiscoveryTests failed"; status=1
fi
rm -f "$log"
echo "--- castctl, pychromecast and python-zeroconf"
.venv/bin/python -m pytest -q -p no:cacheprovider Tests/System/discovery/test_discovery.py || status=1
echo "--- speaker groups: members found by name, a leader that moves port"
.venv/bin/python -m pytest -q -p no:cacheprovider Tests/System/discovery/test_groups.py || status=1
echo "--- avahi-daemon stopped"
.venv/bin/python -m pytest -q -p no:cacheprovider Tests/System/discovery/test_without_avahi.py || status=1
echo "--- a second network interface, and IPv6 turned off (avahi-daemon restarted for each)"
.venv/bin/python -m pytest -q -p no:cacheprovider Tests/System/discovery/test_networks.py || status=1
exit $status
