#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Network-fault system tests (issue 17). The senders (castctl watch --json, castdeck under Xvfb
# read through AT-SPI, pychromecast) run in a private network namespace; the simulator
# (`castctl receiver`) runs in a second one; a veth pair with private addresses joins them:
#
#   senders' namespace  fs0 10.79.0.1/24  <--veth-->  fr0 10.79.0.2/24  receiver's namespace
#
# Faults are nft rules inside the receiver's namespace (silent drop both ways, random loss),
# a delaying TCP proxy written in the test, SIGKILL + restart. The "returns on another port"
# case runs inside ../shared/scripts/mdns-sandbox with avahi. Needs root (CI runs as root).
#
# TRIALS=N runs every fault N times (figures.py prints the medians); the default is 1.
# FAULTS_ONLY=PYTEST-K-EXPRESSION runs some of the cases (while debugging).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

if [[ -z ${FAULTS_INNER:-} ]]; then
  [[ $(id -u) == 0 ]] || { echo "run-faults: needs root (network namespaces, nft)" >&2; exit 2; }
  command -v nft >/dev/null && command -v Xvfb >/dev/null || ./scripts/setup.sh
  [[ -x .venv/bin/python ]] || ./scripts/setup.sh
  ./scripts/build-data.sh >/dev/null
  # FAULTS_PREBUILT=1 with CASTCTL and CASTDECK set uses those binaries as they are (figures
  # runs while the tree is being rebuilt); otherwise both are built here.
  if [[ -z ${FAULTS_PREBUILT:-} ]]; then
    swift build --product castctl >/dev/null
    swift build --product castdeck >/dev/null
    bin="$(swift build --show-bin-path)"
    export CASTCTL="$bin/castctl" CASTDECK="$bin/castdeck"
  fi
  export FAULTS_RESULTS="${FAULTS_RESULTS:-$(mktemp /tmp/faults-results.XXXXXX.jsonl)}"
  outer_work=$(mktemp -d)
  trap 'rm -rf "$outer_work"' EXIT
  status=0
  # The senders' namespace, with its own session bus for the window and AT-SPI.
  FAULTS_INNER=1 unshare --net dbus-run-session -- "$0" "$@" || status=$?
  # The device that comes back on another port, found again over mDNS.
  if [[ -z ${FAULTS_ONLY:-} || ${FAULTS_ONLY} == *mdns* ]]; then
    sandbox="$(cd "$root/.." && pwd)/shared/scripts/mdns-sandbox"
    if [[ -x $sandbox ]]; then
      FAULTS_WORK="${FAULTS_LOGS:-$outer_work}" "$sandbox" .venv/bin/python -m pytest -q -p no:cacheprovider -W ignore::DeprecationWarning Tests/System/faults/test_mdns_faults.py "$@" || status=$?
    else
      echo "run-faults: $sandbox is missing (CI has shared/ beside the clone)" >&2; status=1
    fi
  fi
  .venv/bin/python Tests/System/faults/figures.py --summary "$FAULTS_RESULTS" || true
  exit $status
fi

# Inside the senders' namespace (and its private session bus).
ip link set lo up
unshare --net sleep infinity & peer=$!
# A private runtime directory: at-spi-bus-launcher puts its socket there (otherwise in
# ~/.cache/at-spi/bus_DISPLAY, which another run on the same display number replaces).
runtime=$(mktemp -d /tmp/faults-runtime.XXXXXX)
chmod 700 "$runtime"
export XDG_RUNTIME_DIR="$runtime"
source Tests/System/gui/desktop-session.sh 1024x900
trap 'cleanup; rm -rf "$runtime"' EXIT
pids+=("$peer")
sleep 0.2
ip link add fs0 type veth peer name fr0
ip link set fr0 netns "$peer"
ip addr add 10.79.0.1/24 dev fs0
ip link set fs0 up
nsenter -t "$peer" -n ip link set lo up
nsenter -t "$peer" -n ip addr add 10.79.0.2/24 dev fr0
nsenter -t "$peer" -n ip link set fr0 up
sleep 0.5  # let both ends of the veth pair come up (IPv4 needs no address negotiation)

# FAULTS_LOGS=DIR keeps the receivers' and windows' logs there (they go with $work otherwise).
mkdir -p "${FAULTS_LOGS:-$work}"
export FAULT_PEER_PID="$peer" SENDER_ADDR=10.79.0.1 RECEIVER_ADDR=10.79.0.2 FAULTS_WORK="${FAULTS_LOGS:-$work}"
export XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state" GSETTINGS_BACKEND=keyfile \
  LANGUAGE=en LC_ALL=C.UTF-8 CASTDECK_NO_DISCOVERY=1
args=(-q -p no:cacheprovider -W ignore::DeprecationWarning Tests/System/faults/test_faults.py)
[[ -n ${FAULTS_ONLY:-} ]] && args+=(-k "$FAULTS_ONLY")
.venv/bin/python -m pytest "${args[@]}" "$@"
