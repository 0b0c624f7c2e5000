#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# System test of device authentication (issue 18) through the castctl binary: `castctl receiver
# --auth-ca DIR [--auth-fault KIND]` over real TLS on loopback, `castctl status` reading the
# verdict, and `--require-auth` / CASTCTL_REQUIRE_AUTH=1 refusing every failure with exit 1 and
# one line on stderr.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --product castctl >/dev/null
castctl="$(swift build --show-bin-path)/castctl"
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
export XDG_STATE_HOME="$work/state"
unset CASTCTL_REQUIRE_AUTH CASTDECK_EXTRA_CAST_ROOTS CASTCTL_DEVICE
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

# Starts a receiver with the given options; sets $device to its HOST:PORT.
start_receiver() {
  local out="$work/receiver-$RANDOM.out"
  "$castctl" receiver --port 0 "$@" >"$out" 2>>"$work/receiver.log" &
  pids+=($!)
  for _ in $(seq 1 600); do
    if [[ -s "$out" ]]; then break; fi
    sleep 0.1
  done
  local line; line=$(head -n1 "$out")
  [[ "$line" == "listening on "* ]] || { echo "receiver did not start: $line" >&2; tail -n 20 "$work/receiver.log" >&2; exit 1; }
  device=${line#listening on }
}

stop_receiver() { local p=${pids[-1]}; kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; unset 'pids[-1]'; }

# json_field FILE EXPR: prints authentication.EXPR from a status --json output.
auth_field() { python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["authentication"]; v=a[sys.argv[2]]; print("null" if v is None else (str(v).lower() if isinstance(v,bool) else v))' "$1" "$2"; }

ca="$work/ca"
roots="$ca/root.pem"

# 1. A correct chain verifies; status shows it in JSON and in words.
start_receiver --auth-ca "$ca"
CASTDECK_EXTRA_CAST_ROOTS="$roots" "$castctl" status --device "$device" --json >"$work/ok.json"
if [[ $(auth_field "$work/ok.json" verified) == true && $(auth_field "$work/ok.json" commonName) == "CastDeck Simulated Device" && $(auth_field "$work/ok.json" reason) == null ]]; then
  ok "correct chain verifies"
else fail "correct chain: $(cat "$work/ok.json")"; fi
text=$(CASTDECK_EXTRA_CAST_ROOTS="$roots" "$castctl" status --device "$device")
grep -q "^Trust: *Verified device (CastDeck Simulated Device)" <<<"$text" && ok "plain status says Verified device" || fail "plain status: $text"
if CASTDECK_EXTRA_CAST_ROOTS="$roots" "$castctl" status --device "$device" --require-auth >/dev/null; then ok "--require-auth accepts a verified device"; else fail "--require-auth refused a verified device"; fi
# The same device without its test root is unverified (the shipped roots only).
"$castctl" status --device "$device" --json >"$work/noroot.json"
[[ $(auth_field "$work/noroot.json" reason) == chain ]] && ok "test root not trusted unless added" || fail "without extra roots: $(cat "$work/noroot.json")"
# An unreadable extra-roots file is an error, not a silent fallback.
set +e
err=$(CASTDECK_EXTRA_CAST_ROOTS="$work/missing.pem" "$castctl" status --device "$device" 2>&1 >/dev/null); code=$?
set -e
[[ $code == 1 && $(wc -l <<<"$err") == 1 && "$err" == *CASTDECK_EXTRA_CAST_ROOTS* ]] && ok "bad CASTDECK_EXTRA_CAST_ROOTS exits 1" || fail "bad extra roots: exit $code: $err"
stop_receiver

# 2. Every fault: status reports its reason, --require-auth and CASTCTL_REQUIRE_AUTH=1 exit 1 with one line.
declare -A expect=([bad-signature]=signature [wrong-nonce]=nonce [expired]=expired [untrusted-root]=chain [error]=auth-error [silent]=no-answer)
for fault in bad-signature wrong-nonce expired untrusted-root error silent; do
  start_receiver --auth-ca "$ca" --auth-fault "$fault"
  CASTDECK_EXTRA_CAST_ROOTS="$roots" "$castctl" status --device "$device" --timeout 2 --json >"$work/$fault.json"
  got=$(auth_field "$work/$fault.json" reason)
  [[ $got == "${expect[$fault]}" && $(auth_field "$work/$fault.json" verified) == false ]] && ok "$fault: reason $got" || fail "$fault: expected ${expect[$fault]}, got $(cat "$work/$fault.json")"
  text=$(CASTDECK_EXTRA_CAST_ROOTS="$roots" "$castctl" status --device "$device" --timeout 2)
  grep -q "^Trust: *Unverified device: " <<<"$text" && ok "$fault: plain status says Unverified device" || fail "$fault plain: $text"
  for how in flag env; do
    set +e
    if [[ $how == flag ]]; then
      err=$(CASTDECK_EXTRA_CAST_ROOTS="$roots" "$castctl" status --device "$device" --timeout 2 --require-auth 2>&1 >/dev/null); code=$?
    else
      err=$(CASTCTL_REQUIRE_AUTH=1 CASTDECK_EXTRA_CAST_ROOTS="$roots" "$castctl" pause --device "$device" --timeout 2 2>&1 >/dev/null); code=$?
    fi
    set -e
    if [[ $code == 1 && $(wc -l <<<"$err") == 1 && "$err" == "castctl: Refused "*"not a verified Cast device"* ]]; then
      ok "$fault: require ($how) exits 1: $err"
    else fail "$fault: require ($how): exit $code: $err"; fi
  done
  stop_receiver
done

# 3. Without --auth-ca the simulator answers AuthError, as before; require refuses it.
start_receiver
"$castctl" status --device "$device" --json >"$work/plain.json"
[[ $(auth_field "$work/plain.json" reason) == auth-error ]] && ok "no --auth-ca: auth-error" || fail "no --auth-ca: $(cat "$work/plain.json")"
set +e; "$castctl" status --device "$device" --require-auth >/dev/null 2>&1; code=$?; set -e
[[ $code == 1 ]] && ok "no --auth-ca: --require-auth exits 1" || fail "no --auth-ca: --require-auth exit $code"
stop_receiver

# 4. --auth-fault without --auth-ca is a usage error.
set +e; "$castctl" receiver --port 0 --auth-fault silent >/dev/null 2>&1; code=$?; set -e
[[ $code == 2 ]] && ok "--auth-fault without --auth-ca exits 2" || fail "--auth-fault alone: exit $code"

if ((failures)); then
  echo "--- receiver log (last 40 lines)"; tail -n 40 "$work/receiver.log" || true
  echo "device auth system tests: $failures failed" >&2
  exit 1
fi
echo "device auth system tests: all passed"
