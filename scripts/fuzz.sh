#!/usr/bin/env bash
# Fuzzes CastProtocol's frame + JSON decoding with libFuzzer for a bounded time.
#   scripts/fuzz.sh [SECONDS] [extra libFuzzer flags...]      (default 300 s)
# The corpus starts from the test fixtures (as raw JSON and as framed messages) and lives
# in fuzz-corpus/ (ignored by git); crashes are written to artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-300}; shift || true
swift build -c release --product castproto-fuzz --scratch-path .build-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld
bin=$(swift build -c release --scratch-path .build-fuzz --show-bin-path)/castproto-fuzz
mkdir -p fuzz-corpus artifacts
if [[ -z $(ls -A fuzz-corpus) ]]; then
  python3 - <<'PY'
import json, pathlib, struct
root = pathlib.Path("Tests/CastProtocolTests/Fixtures")
ns = {"connection": "urn:x-cast:com.google.cast.tp.connection", "heartbeat": "urn:x-cast:com.google.cast.tp.heartbeat",
      "receiver": "urn:x-cast:com.google.cast.receiver", "media": "urn:x-cast:com.google.cast.media"}
def field(num, wt, payload):
    key = bytes([(num << 3) | wt])
    if wt == 0: return key + bytes([payload])
    n = len(payload); v = b""
    while True:
        b = n & 0x7F; n >>= 7
        v += bytes([b | (0x80 if n else 0)])
        if not n: break
    return key + v + payload
for i, f in enumerate(sorted(root.rglob("*.json"))):
    text = json.dumps(json.loads(f.read_text()), separators=(",", ":")).encode()
    pathlib.Path(f"fuzz-corpus/json-{i}").write_bytes(text)
    body = field(1, 0, 0) + field(2, 2, b"sender-0") + field(3, 2, b"receiver-0") + field(4, 2, ns[f.parent.name].encode()) + field(5, 0, 0) + field(6, 2, text)
    pathlib.Path(f"fuzz-corpus/frame-{i}").write_bytes(b"\x00" + struct.pack(">I", len(body)) + body)
PY
fi
"$bin" fuzz-corpus -max_total_time="$secs" -max_len=70000 -artifact_prefix=artifacts/ -print_final_stats=1 "$@" 2>&1 | tee /tmp/castdeck-fuzz.log | grep -E "^(#[0-9]+ +(DONE|pulse))|stat::number_of_executed_units|ERROR|SUMMARY" || true
grep -q "ERROR: " /tmp/castdeck-fuzz.log && { echo "fuzz: a crash was found, see artifacts/" >&2; exit 1; }
runs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" /tmp/castdeck-fuzz.log | grep -oE "[0-9]+$" || echo "?")
echo "fuzz: $runs inputs in ${secs}s, no crash"
