# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Load (issue 17): 10 senders (5 pychromecast, 5 CastClient) each send COMMANDS requests to
the simulator while the window (castdeck --device) and `castctl watch --json` follow it.
Every request must be answered, by the answer to that request; afterwards the window (read
through AT-SPI), castctl watch's last state and the receiver (`castctl status --json`) agree;
the resident memory of castdeck, castctl watch and the simulator, sampled from /proc each
second, must not grow by more than 10 % from the first to the last quarter after warm-up.
With SOAK_SECONDS the senders run again round after round until that time has passed."""
import json
import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from atspi_helpers import Cases, Failure, app_named, castctl, find, find_all, value_of, wait_for  # noqa: E402

CASTCTL = os.environ["CASTCTL"]
SENDER = os.environ["LOAD_SENDER"]  # castdeck-load-sender
VENV_PY = os.environ["VENV_PYTHON"]
PY_SENDER = os.environ["PY_SENDER"]
DEVICE = os.environ["LOAD_DEVICE"]
WATCH_FILE = os.environ["WATCH_FILE"]
PIDS = {"castdeck": int(os.environ["CASTDECK_PID"]), "castctl watch": int(os.environ["WATCH_PID"]),
        "simulator": int(os.environ["RECEIVER_PID"])}
COMMANDS = int(os.environ.get("LOAD_COMMANDS", "300"))
SOAK = float(os.environ.get("SOAK_SECONDS", "0"))
WINDOW = int(os.environ.get("LOAD_WINDOW", "4"))
# Memory is judged when the run is long enough to have a warm-up and four quarters to compare.
RSS_LIMIT = float(os.environ.get("RSS_GROWTH_LIMIT", "0.10"))
RESULTS = os.environ.get("LOAD_RESULTS")
host, port = DEVICE.rsplit(":", 1)
case = Cases()
app = app_named("castdeck")
samples = {name: [] for name in PIDS}
stop_sampling = threading.Event()


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise Failure(f"no VmRSS for {pid}")


def sampler():
    while not stop_sampling.is_set():
        for name, pid in PIDS.items():
            try:
                samples[name].append((time.monotonic(), rss_kb(pid)))
            except (FileNotFoundError, ProcessLookupError):
                samples[name].append((time.monotonic(), None))
        stop_sampling.wait(1.0)


totals = {"sent": 0, "answered": 0, "lost": 0, "wrong": 0, "rounds": 0}
problems = []


def one_round(r):
    procs = []
    for i in range(5):
        procs.append(subprocess.Popen([VENV_PY, PY_SENDER, host, port, str(i), str(COMMANDS), str(WINDOW)],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        procs.append(subprocess.Popen([SENDER, DEVICE, str(50 + i), str(COMMANDS), str(WINDOW)],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    for p in procs:
        out, err = p.communicate(timeout=3600)
        line = out.strip().splitlines()[-1] if out.strip() else ""
        try:
            result = json.loads(line)
        except json.JSONDecodeError:
            problems.append(f"round {r}: a sender printed no result (exit {p.returncode}): {err.strip()[-500:]}")
            totals["lost"] += COMMANDS
            totals["sent"] += COMMANDS
            continue
        for k in ("sent", "answered", "lost", "wrong"):
            totals[k] += result.get(k, 0)
        if "first_problem" in result or "error" in result or p.returncode != 0:
            problems.append(f"round {r}: {line} {err.strip()[-300:]}")
    totals["rounds"] += 1


def load():
    find(app, "Load Test", "label", timeout=60)
    threading.Thread(target=sampler, daemon=True).start()
    t0 = time.monotonic()
    r = 0
    while True:
        one_round(r)
        r += 1
        if time.monotonic() - t0 >= SOAK:
            break
    stop_sampling.set()
    elapsed = time.monotonic() - t0
    probe = os.environ.get("PROBE_FILE")
    if probe and os.path.exists(probe):
        with open(probe) as f:
            during = [json.loads(l)["max_ms"] for l in f if l.strip() and t0 <= json.loads(l)["t"] <= t0 + elapsed + 1.05]
        if during:
            totals["stall_ms"] = max(during)
            print(f"     castdeck main loop during the load: longest stall {max(during):.1f} ms", flush=True)
    print(f"     {totals['rounds']} round(s) of 10 senders × {COMMANDS} commands in {elapsed:.0f} s: "
          f"sent {totals['sent']}, answered {totals['answered']}, lost {totals['lost']}, wrong {totals['wrong']}", flush=True)
    if problems:
        raise Failure("; ".join(problems[:3]))
    if totals["lost"] or totals["wrong"] or totals["answered"] != totals["sent"] or totals["sent"] != 10 * COMMANDS * totals["rounds"]:
        raise Failure(f"not every command was answered by its own answer: {totals}")


def last_watch_state():
    media = receiver = None
    with open(WATCH_FILE) as f:
        for line in f:
            try:
                e = json.loads(line)
            except json.JSONDecodeError:
                continue
            if e.get("event") == "media" and e.get("media"):
                media = e["media"]
            elif e.get("event") == "receiver" and e.get("receiver"):
                receiver = e["receiver"]
    return media, receiver


def states_agree():
    truth = json.loads(castctl(CASTCTL, DEVICE, "status", "--json"))
    media, device_volume = truth["media"], truth["receiver"]["volume"]["level"]
    state, level = media["playerState"], media["volume"]["level"]

    def watch_agrees():
        m, r = last_watch_state()
        return m and r and m["playerState"] == state and m["volume"]["level"] == level and r["volume"]["level"] == device_volume
    wait_for(f"castctl watch's last state to be {state}, stream volume {level}, device volume {device_volume}", watch_agrees, timeout=30)
    # The window: the play button says what the device does, the volume slider shows the device.
    button = "Pause" if state in ("PLAYING", "BUFFERING") else "Play"
    wait_for(f"the window's {button} button", lambda: find_all(app, button, "push button"), timeout=30)
    slider = find(app, "Volume", "slider")
    wait_for(f"the window's Volume slider at {device_volume}", lambda: abs(value_of(slider) - device_volume) < 1e-6, timeout=30)
    print(f"     receiver, window and castctl watch agree: {state}, device volume {device_volume:.8f}, "
          f"stream volume {level:.8f}", flush=True)


def memory_flat():
    report = {}
    failures = []
    for name, series in samples.items():
        values = [v for _, v in series if v is not None]
        if len(values) != len(series):
            failures.append(f"{name} exited during the run")
            continue
        # Warm-up: the first fifth of the run; the rest is cut in quarters.
        rest = values[len(values) // 5:]
        q = len(rest) // 4
        if q < 2:
            report[name] = {"samples": len(values)}
            continue
        first, last = sum(rest[:q]) / q, sum(rest[-q:]) / q
        growth = (last - first) / first
        report[name] = {"first_quarter_kb": round(first), "last_quarter_kb": round(last), "growth": round(growth, 4),
                        "max_kb": max(values), "samples": len(values)}
        print(f"     RSS {name}: first quarter {first / 1024:.1f} MB, last quarter {last / 1024:.1f} MB "
              f"({growth * 100:+.1f} %), peak {max(values) / 1024:.1f} MB, {len(values)} samples", flush=True)
        if growth > RSS_LIMIT:
            failures.append(f"{name} grew {growth * 100:.1f} % (limit {RSS_LIMIT * 100:.0f} %)")
    if RESULTS:
        with open(RESULTS, "w") as f:
            json.dump({"commands_per_sender": COMMANDS, **totals, "rss": report}, f, indent=1)
    if failures:
        raise Failure("; ".join(failures))


case("10 senders: every command answered by its own answer", load)
case("window, castctl watch and receiver agree", states_agree)
case("memory of castdeck, castctl watch and the simulator is flat", memory_flat)
sys.exit(1 if case.failed else 0)
