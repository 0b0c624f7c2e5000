#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Discovery system tests. Everything that speaks mDNS runs inside ../shared/scripts/mdns-sandbox
# (a private network namespace with its own D-Bus and avahi-daemon): the CastDiscovery Swift tests
# that need Avahi (they skip themselves anywhere else), then pytest with castctl, the simulator,
# avahi-publish, python-zeroconf and pychromecast. The test that stops avahi-daemon runs last.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
sandbox="$(cd "$root/.." && pwd)/shared/scripts/mdns-sandbox"
[[ -x $sandbox ]] || { echo "run-discovery: $sandbox is missing (CI has shared/ beside the clone)" >&2; exit 1; }
[[ -x .venv/bin/python ]] || ./scripts/setup.sh
swift build --product CastDeckPackageTests >/dev/null && swift build --product castctl >/dev/null
export CASTCTL="$(swift build --show-bin-path)/castctl"
exec "$sandbox" bash "$root/Tests/System/discovery/inside.sh"
