# SPDX-License-Identifier: GPL-3.0-or-later
"""SET_PLAYBACK_RATE command-to-acknowledged-status latency through pychromecast: each
sample is `set_playback_rate`, which returns when the reply with its request id arrives."""
import json
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from pcc_media import media_controller  # noqa: E402

iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 500
cast, mc = media_controller(sys.argv[1], "Bench")
for _ in range(20):
    mc.set_playback_rate(2)
    mc.set_playback_rate(1)
samples = []
for i in range(iterations):
    rate = 2 if i % 2 == 0 else 1
    t0 = time.perf_counter()
    mc.set_playback_rate(rate)
    samples.append((time.perf_counter() - t0) * 1000)
    assert mc.status.playback_rate == rate, f"status shows {mc.status.playback_rate}, not {rate}"
samples.sort()
pct = lambda p: samples[min(len(samples) - 1, int(p / 100 * len(samples)))]
print(json.dumps({"peer": "pychromecast", "iterations": iterations, "p50_ms": pct(50), "p99_ms": pct(99)}))
cast.disconnect(timeout=5)
