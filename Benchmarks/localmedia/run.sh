#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Serving a 1 GiB file over loopback: CastDeck's media server (through `castctl cast`)
# against nginx (Debian's nginx-light, sendfile on) and catt's file server (catt 0.13.3
# from PyPI, in a private venv), on the same file in the same run: throughput with one
# reader of the whole file and with four concurrent range readers (a quarter each), as
# medians of ROUNDS runs, and the ratios. Then the time from `castctl cast FILE` to
# PLAYING against `castctl receiver --fetch-media` (which fetches the media, the tracks
# and reads the duration before it answers), median of ROUNDS.
#   Benchmarks/localmedia/run.sh        (CASTCTL=path to use another castctl build)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-5}
for tool in ffmpeg curl nginx; do command -v $tool >/dev/null || [[ -x /usr/sbin/$tool ]] || ./scripts/setup.sh; done
source Benchmarks/lib.sh
CASTCTL=${CASTCTL:-$(swift build "${RELEASE[@]}" --product castctl >/dev/null && echo "$(swift build "${RELEASE[@]}" --show-bin-path)/castctl")}
work=$(mktemp -d /tmp/castdeck-bench-localmedia.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# catt, pinned, in its own venv (it pins its own pychromecast, unlike .venv's).
venv=.venv-catt
if [[ ! -x $venv/bin/python ]] || ! $venv/bin/python -c 'import catt' 2>/dev/null; then
  python3 -m venv "$venv" && "$venv/bin/pip" install -q --disable-pip-version-check catt==0.13.3
fi

# The file: a real MP4 header (so castctl takes it as MP4; 2 hours long, so the simulated
# playback does not end during the run) padded to 1 GiB.
ffmpeg -v error -nostdin -y -f lavfi -i testsrc=size=64x48:rate=1:duration=7200 -c:v libx264 -preset ultrafast \
  -pix_fmt yuv420p -movflags +faststart "$work/head.mp4"
{ cat "$work/head.mp4"; head -c $((1024 * 1024 * 1024 - $(stat -c %s "$work/head.mp4"))) /dev/zero; } >"$work/big.mp4"
SIZE=$(stat -c %s "$work/big.mp4")
cat "$work/big.mp4" >/dev/null  # into the page cache, for every server alike

wait_for() { for _ in $(seq $(($3 * 10))); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; echo "timeout waiting for $2 in $1" >&2; return 1; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# --- the three servers
"$CASTCTL" receiver --port 0 >"$work/rcv.out" 2>/dev/null &
pids+=($!)
wait_for "$work/rcv.out" "^listening on " 20
DEV=127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/rcv.out")
"$CASTCTL" cast --device "$DEV" "$work/big.mp4" >"$work/cast.out" 2>"$work/cast.err" &
pids+=($!)
wait_for "$work/cast.out" "^Casting" 60
castdeck_url=$(grep -o 'http://[^ ]*' "$work/cast.out" | head -1)

nport=$(free_port)
cat >"$work/nginx.conf" <<NGINX
user root;
worker_processes 2;
daemon off;
pid $work/nginx.pid;
error_log $work/nginx.err;
events { worker_connections 256; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 60;
  types { video/mp4 mp4; }
  server { listen 127.0.0.1:$nport; root $work; }
}
NGINX
$(command -v nginx || echo /usr/sbin/nginx) -c "$work/nginx.conf" &
pids+=($!)
nginx_url=http://127.0.0.1:$nport/big.mp4

cport=$(free_port)
"$venv/bin/python" -c 'import sys; from catt.http_server import serve_file; serve_file(sys.argv[1], "127.0.0.1", int(sys.argv[2]), "video/mp4")' "$work/big.mp4" "$cport" 2>/dev/null &
pids+=($!)
catt_url=http://127.0.0.1:$cport/
for u in "$nginx_url" "$catt_url" "$castdeck_url"; do
  for _ in $(seq 100); do curl -s -o /dev/null -r 0-0 "$u" && break; sleep 0.1; done
done

# --- throughput
one_reader() {  # URL → MB/s of one whole-file GET
  curl -s -o /dev/null -w '%{size_download} %{time_total}\n' "$1" | awk -v want="$SIZE" '$1 != want { print "short read" > "/dev/stderr"; exit 1 } { printf "%.1f\n", $1 / $2 / 1e6 }'
}
four_readers() {  # URL → MB/s of 4 concurrent quarter-range GETs (total bytes / wall time)
  local q=$((SIZE / 4)) start end
  start=$(date +%s.%N)
  for i in 0 1 2 3; do
    curl -s -o /dev/null -r "$((i * q))-$(((i + 1) * q - 1))" "$1" &
  done
  wait $(jobs -p | tail -4)
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" -v n="$SIZE" 'BEGIN { printf "%.1f\n", n / (e - s) / 1e6 }'
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

declare -A r1 r4
for name in castdeck nginx catt; do
  url_var=${name}_url
  url=${!url_var}
  r1[$name]=$(for _ in $(seq "$ROUNDS"); do one_reader "$url"; done | median)
  r4[$name]=$(for _ in $(seq "$ROUNDS"); do four_readers "$url"; done | median)
done
printf '1 GiB over loopback, median of %d runs (MB/s):\n' "$ROUNDS"
printf '  %-10s %12s %16s\n' server "1 reader" "4 range readers"
for name in castdeck nginx catt; do printf '  %-10s %12s %16s\n' "$name" "${r1[$name]}" "${r4[$name]}"; done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
printf '  castdeck / nginx: %s (1 reader), %s (4 readers)\n' "$(ratio "${r1[castdeck]}" "${r1[nginx]}")" "$(ratio "${r4[castdeck]}" "${r4[nginx]}")"
printf '  castdeck / catt:  %s (1 reader), %s (4 readers)\n' "$(ratio "${r1[castdeck]}" "${r1[catt]}")" "$(ratio "${r4[castdeck]}" "${r4[catt]}")"
source Benchmarks/lib.sh
for peer in nginx catt; do
  result localmedia "serve 1 GiB, 1 reader" "${r1[castdeck]}" "${r1[$peer]}" "$peer" MB/s higher
  result localmedia "serve 1 GiB, 4 range readers" "${r4[castdeck]}" "${r4[$peer]}" "$peer" MB/s higher
done

# --- castctl cast FILE → PLAYING, against the fetching simulator
ffmpeg -v error -nostdin -y -f lavfi -i testsrc=size=320x240:rate=10:duration=30 -f lavfi -i sine=duration=30 -c:v libx264 \
  -preset ultrafast -pix_fmt yuv420p -c:a aac -shortest -movflags +faststart "$work/film.mp4"
printf '1\n00:00:01,000 --> 00:00:02,000\nHello\n' >"$work/film.en.srt"
"$CASTCTL" receiver --port 0 --fetch-media >"$work/rcv2.out" 2>/dev/null &
pids+=($!)
wait_for "$work/rcv2.out" "^listening on " 20
DEV2=127.0.0.1:$(sed -n 's/^listening on .*://p' "$work/rcv2.out")
python3 - "$CASTCTL" "$DEV2" "$work/film.mp4" "$ROUNDS" <<'PY'
import signal, statistics, subprocess, sys, time
castctl, dev, film, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
times = []
for _ in range(rounds):
    t0 = time.monotonic()
    p = subprocess.Popen([castctl, "cast", "--device", dev, film], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = p.stdout.readline()  # printed once the LOAD was answered with PLAYING
    times.append((time.monotonic() - t0) * 1000)
    assert line.startswith("Casting"), line
    p.send_signal(signal.SIGINT)
    p.wait(timeout=10)
print(f"castctl cast FILE (probe, 1 SRT → WebVTT, serve, connect, launch, LOAD) → PLAYING with --fetch-media: "
      f"median {statistics.median(times):.0f} ms (min {min(times):.0f}, max {max(times):.0f}, {rounds} runs)")
PY
