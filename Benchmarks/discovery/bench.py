# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Runs inside mdns-sandbox (see run.sh). Prints one line per tool and the ratio of medians."""

import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

CASTCTL = os.environ["CASTCTL"]
HOST, PEER = os.environ["MDNS_SANDBOX_HOST"], os.environ["MDNS_SANDBOX_PEER"]
RUNS = int(os.environ.get("RUNS", "9"))
PY = sys.executable

# pychromecast's discovery, exiting at its first device: the same work `castctl discover --count 1` does.
PYCHROMECAST = f"""
import os, threading, zeroconf, pychromecast
found = threading.Event()
zc = zeroconf.Zeroconf(interfaces=["{PEER}"])
browser = pychromecast.discovery.CastBrowser(
    pychromecast.discovery.SimpleCastListener(add_callback=lambda u, s: found.set()), zc)
browser.start_discovery()
ok = found.wait(10)
print(next(iter(browser.devices.values())).friendly_name if ok else "none", flush=True)
os._exit(0 if ok else 1)
"""


def timed(args, env=None):
    start = time.monotonic()
    done = subprocess.run(args, capture_output=True, text=True, timeout=60, env=env)
    elapsed = time.monotonic() - start
    if done.returncode != 0 or "Bench TV" not in done.stdout:
        raise SystemExit(f"run failed: {args[0]} {done.returncode} {done.stdout!r} {done.stderr!r}")
    return elapsed


def main():
    device = uuid.uuid4()
    sim = subprocess.Popen([CASTCTL, "receiver", "--host", HOST, "--port", "8009", "--name", "Bench TV",
                            "--uuid", str(device), "--announce"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert sim.stdout.readline().startswith("listening on ")
        time.sleep(1)  # let the announcement settle: the device is "already announced"
        config = tempfile.mkdtemp()
        env = {**os.environ, "XDG_CONFIG_HOME": config}
        ours, theirs = [], []
        for _ in range(RUNS):
            ours.append(timed([CASTCTL, "discover", "--count", "1", "--timeout", "10"], env))
            theirs.append(timed([PY, "-c", PYCHROMECAST]))
        m_ours, m_theirs = statistics.median(ours), statistics.median(theirs)
        print(f"discovery, first device listed (process start to exit), {RUNS} runs each, same sandbox:")
        print(f"  castctl discover --count 1 (avahi-client): median {m_ours * 1000:7.1f} ms  "
              f"(min {min(ours) * 1000:.1f}, max {max(ours) * 1000:.1f})")
        print(f"  pychromecast 14.0.10 (python-zeroconf):    median {m_theirs * 1000:7.1f} ms  "
              f"(min {min(theirs) * 1000:.1f}, max {max(theirs) * 1000:.1f})")
        print(f"  ratio pychromecast / castctl: {m_theirs / m_ours:.1f}x")
    finally:
        sim.send_signal(signal.SIGTERM)
        sim.wait(timeout=10)


main()
