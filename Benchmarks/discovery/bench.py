# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Runs inside mdns-sandbox (see run.sh). Prints one line per tool and the ratio of medians."""

import json
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
HERE = os.path.dirname(os.path.abspath(__file__))

# pychromecast's discovery, exiting at its first device: the same work `castctl discover --count 1` does.
PYCHROMECAST = f"""
import os, threading, zeroconf, pychromecast
found = threading.Event()
zc = zeroconf.Zeroconf(interfaces=[os.environ["BENCH_IFACE"]])
browser = pychromecast.discovery.CastBrowser(
    pychromecast.discovery.SimpleCastListener(add_callback=lambda u, s: found.set()), zc)
browser.start_discovery()
ok = found.wait(10)
print(next(iter(browser.devices.values())).friendly_name if ok else "none", flush=True)
os._exit(0 if ok else 1)
"""


def peer_namespace():
    """veth1 in a namespace of its own: pychromecast there is another host to avahi-daemon
    (which does not answer queries from its own addresses). Returns (holder, nsenter prefix)."""
    holder = subprocess.Popen(["unshare", "--net", "sleep", "600"])
    ns = f"/proc/{holder.pid}/ns/net"
    for _ in range(50):
        if os.path.exists(ns) and os.readlink(ns) != os.readlink("/proc/self/ns/net"):
            break
        time.sleep(0.05)
    subprocess.run(f"ip link set veth1 netns {holder.pid}", shell=True, check=True)
    subprocess.run(f"nsenter --net={ns} sh -c 'ip link set lo up && ip addr add {PEER}/24 dev veth1 && ip link set veth1 up'",
                   shell=True, check=True)
    return holder, ["nsenter", f"--net={ns}"]


def timed(args, env=None, expect="Bench TV"):
    start = time.monotonic()
    done = subprocess.run(args, capture_output=True, text=True, timeout=60, env=env)
    elapsed = time.monotonic() - start
    if done.returncode != 0 or expect not in done.stdout:
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
        holder, enter = peer_namespace()
        ours, theirs = [], []
        ours2, theirs2 = [], []
        try:
            for _ in range(RUNS):
                ours.append(timed([CASTCTL, "discover", "--count", "1", "--timeout", "10"], env))
                theirs.append(timed([*enter, PY, "-c", PYCHROMECAST], {**os.environ, "BENCH_IFACE": PEER}))
            # Second case: the device is another host (python-zeroconf in the peer namespace);
            # both tools run on this side. It is already announced before the first run.
            sim.send_signal(signal.SIGTERM)
            sim.wait(timeout=10)
            peer = subprocess.Popen([*enter, PY, os.path.join(HERE, "..", "..", "Tests", "System", "discovery", "zc_peer.py"),
                                     PEER, uuid.uuid4().hex], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            assert peer.stdout.readline().strip() == "registered"
            time.sleep(1)
            for _ in range(RUNS):
                ours2.append(timed([CASTCTL, "discover", "--count", "1", "--timeout", "10"], env, "Zeroconf Hub"))
                theirs2.append(timed([PY, "-c", PYCHROMECAST], {**os.environ, "BENCH_IFACE": HOST}, "Zeroconf Hub"))
            peer.kill()
        finally:
            holder.kill()
        m_ours, m_theirs = statistics.median(ours), statistics.median(theirs)
        print(f"discovery, first device listed (process start to exit), {RUNS} runs each, same sandbox;")
        print("castctl asks the local avahi-daemon, pychromecast queries from the peer namespace:")
        print(f"  castctl discover --count 1 (avahi-client): median {m_ours * 1000:7.1f} ms  "
              f"(min {min(ours) * 1000:.1f}, max {max(ours) * 1000:.1f})")
        print(f"  pychromecast 14.0.10 (python-zeroconf):    median {m_theirs * 1000:7.1f} ms  "
              f"(min {min(theirs) * 1000:.1f}, max {max(theirs) * 1000:.1f})")
        print(f"  ratio pychromecast / castctl: {m_theirs / m_ours:.1f}x")
        m2_ours, m2_theirs = statistics.median(ours2), statistics.median(theirs2)
        print("device on the other host (python-zeroconf in the peer namespace), both tools on this side:")
        print(f"  castctl discover --count 1 (avahi-client): median {m2_ours * 1000:7.1f} ms  "
              f"(min {min(ours2) * 1000:.1f}, max {max(ours2) * 1000:.1f})")
        print(f"  pychromecast 14.0.10 (python-zeroconf):    median {m2_theirs * 1000:7.1f} ms  "
              f"(min {min(theirs2) * 1000:.1f}, max {max(theirs2) * 1000:.1f})")
        print(f"  ratio pychromecast / castctl: {m2_theirs / m2_ours:.1f}x")
        for name, ours_ms, theirs_ms in (("first device listed, device on this host", m_ours, m_theirs),
                                         ("first device listed, device on the other host", m2_ours, m2_theirs)):
            print("bench-result: " + json.dumps({"area": "discovery", "name": name, "ours": ours_ms * 1000,
                                                  "peer": theirs_ms * 1000, "peer_name": "pychromecast (python-zeroconf)",
                                                  "unit": "ms", "better": "lower"}))
    finally:
        if sim.poll() is None:
            sim.send_signal(signal.SIGTERM)
            sim.wait(timeout=10)


main()
