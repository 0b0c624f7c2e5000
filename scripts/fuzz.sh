#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Fuzzes a parser of outside input with libFuzzer + AddressSanitizer for a bounded time.
#   scripts/fuzz.sh [TARGET] [SECONDS] [extra libFuzzer flags...]     (default: frame, 300 s)
# TARGET: frame  (CastProtocol frame + JSON decoding, Fuzz/castproto-fuzz)
#         webvtt (SRT/ASS/WebVTT → WebVTT), range (HTTP Range), txt (DNS-SD TXT records)
#                (Fuzz/castdeck-fuzz)
# A first argument that is a number is SECONDS for the frame target (the old form).
# Each target's corpus starts from seeds written here and lives in fuzz-corpus/TARGET/
# (ignored by git); crashes are written to artifacts/TARGET-*. Exits 1 when a crash or a
# failed check was found. FUZZ_LOG names the log (default /tmp/castdeck-fuzz-TARGET.log).
set -euo pipefail
cd "$(dirname "$0")/.."
target=frame
if [[ $# -gt 0 && ! $1 =~ ^[0-9]+$ ]]; then target=$1; shift; fi
secs=${1:-300}; shift || true
case $target in
  frame) product=castproto-fuzz; run=() ;;
  webvtt|range|txt) product=castdeck-fuzz; run=("$target") ;;
  *) echo "fuzz.sh: unknown target '$target' (frame, webvtt, range, txt)" >&2; exit 2 ;;
esac
swift build -c release --product "$product" --scratch-path .build-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld
bin=$(swift build -c release --scratch-path .build-fuzz --show-bin-path)/$product
corpus=fuzz-corpus/$target
# The frame corpus used to live directly in fuzz-corpus/.
if [[ $target == frame && ! -d $corpus ]] && compgen -G "fuzz-corpus/json-*" >/dev/null; then
  mkdir -p "$corpus"; mv fuzz-corpus/json-* fuzz-corpus/frame-* "$corpus"/ 2>/dev/null || true
fi
mkdir -p "$corpus" artifacts
if [[ -z $(ls -A "$corpus") ]]; then
  python3 - "$target" "$corpus" <<'PY'
import json, pathlib, struct, sys
target, out = sys.argv[1], pathlib.Path(sys.argv[2])
if target == "frame":
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
        (out / f"json-{i}").write_bytes(text)
        body = field(1, 0, 0) + field(2, 2, b"sender-0") + field(3, 2, b"receiver-0") + field(4, 2, ns[f.parent.name].encode()) + field(5, 0, 0) + field(6, 2, text)
        (out / f"frame-{i}").write_bytes(b"\x00" + struct.pack(">I", len(body)) + body)
elif target == "webvtt":
    # First byte: 0 SRT, 1 ASS, 2 WebVTT (mod 3); then the file.
    seeds = [b"\x00" + "1\r\n00:00:01,000 --> 00:00:02,500\r\n<i>Hello</i> {\\an8}<font color=red>x</font>\r\n\r\n2\r\n00:03.5 --> 00:00:04,000 X1:10\r\nA & B <c>\r\n".encode(),
             b"\x00" + "\ufeff1\n00:00:01,000 --> 00:00:02,000\nÇa va\n\n".encode("utf-8"),
             b"\x00" + "1\n00:00:01,000 --> 00:00:02,000\n\xe9t\xe9\n".encode("latin-1"),
             b"\x01" + "[Script Info]\nTitle: x\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,{\\i1}Hi{\\i0}\\Nthere {\\p1}m 0 0 l 1 1{\\p0}\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\b700}Bold{\\b0} a --> b\\hc\n".encode(),
             b"\x02" + "WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n".encode(),
             # Hours far past any film (once trapped in the timestamp; see SubtitleTests).
             b"\x00" + "1\n99999999999999:00:01,000 --> 999999999999999:00:02,500\nHello\n".encode(),
             b"\x01" + "[V4+ Styles]\nFormat: Name\n[Events]\nFormat: Start, End, Text\nDialogue: 0:00:00.50,0:00:01.00,a,b,c\n".encode()]
    for i, s in enumerate(seeds): (out / f"seed-{i}").write_bytes(s)
elif target == "range":
    def seed(size, header, a=0, b=0):
        raw = (size << 1).to_bytes(8, "big")
        return raw + header.encode() if not (a or b) else raw + ((a << 1).to_bytes(8, "big") + (b << 1).to_bytes(8, "big"))
    seeds = [seed(1000, "bytes=0-499"), seed(1000, "bytes=-500"), seed(1000, "bytes=500-"), seed(0, "bytes=0-"),
             seed(1000, "Bytes = 1-2, 3-4"), seed(1000, "bytes=99999999999999999999-"), seed(10, "", 3, 9), seed(10, "items=0-1")]
    for i, s in enumerate(seeds): (out / f"seed-{i}").write_bytes(s)
elif target == "txt":
    def record(*entries):
        return b"".join(bytes([len(e)]) + e for e in entries)
    seeds = [record(b"id=0123456789abcdef0123456789ABCDEF", b"fn=Living Room TV", b"md=Chromecast", b"ca=4101", b"st=0", b"rs=", b"ic=/setup/icon.png"),
             record(b"ID=a-b", b"id=second", b"flag", b"=novalue", b"fn=\xff\xfe"), record(b"ca= 12 ", b"fn=")]
    for i, s in enumerate(seeds): (out / f"seed-{i}").write_bytes(s)
PY
fi
log=${FUZZ_LOG:-/tmp/castdeck-fuzz-$target.log}
# Swift's crash backtracer reads the dying process's memory, which ASan reports as a crash of
# its own and hides the real message; libFuzzer's own report of the trap is enough.
export SWIFT_BACKTRACE=enable=no
"$bin" "${run[@]}" "$corpus" -max_total_time="$secs" -max_len=70000 -artifact_prefix="artifacts/$target-" -print_final_stats=1 "$@" 2>&1 | tee "$log" | grep -E "^(#[0-9]+ +(DONE|pulse))|stat::number_of_executed_units|ERROR|SUMMARY|Fatal error|failed" || true
if grep -qE "ERROR: |Fatal error|deadly signal" "$log"; then echo "fuzz $target: a crash or failed check was found, see artifacts/ and $log" >&2; exit 1; fi
runs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" "$log" | grep -oE "[0-9]+$" || echo "?")
echo "fuzz $target: $runs inputs in at most ${secs}s, no crash"
