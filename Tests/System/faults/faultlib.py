# SPDX-License-Identifier: GPL-3.0-or-later
"""The parts of the network-fault tests (issue 17): the simulator in its own network namespace,
nft faults inside it, a delaying TCP proxy, `castctl watch --json` and the castdeck window as
senders, and the scenarios themselves (used once by test_faults.py and N times by figures.py).

Times are measured and recorded, never asserted as performance: the issue's "within 10 s" and
"within 5 s" are behavioural bounds, used (with room for a loaded machine) as the timeouts of
the waits, and every measured time goes to $FAULTS_RESULTS (one JSON object a line)."""

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

CASTCTL = os.environ.get("CASTCTL", "castctl")
CASTDECK = os.environ.get("CASTDECK", "castdeck")
PEER = os.environ.get("FAULT_PEER_PID")          # a process in the receiver's namespace
RECEIVER_ADDR = os.environ.get("RECEIVER_ADDR", "127.0.0.1")
SENDER_ADDR = os.environ.get("SENDER_ADDR", "127.0.0.1")
WORK = Path(os.environ.get("FAULTS_WORK", "/tmp"))
RESULTS = os.environ.get("FAULTS_RESULTS")
DEVICE_NAME = "Fault TV"
DEVICE_UUID = "f0a1c7e5-0000-4000-8000-00000000f17e"
MEDIA_URL = f"http://{SENDER_ADDR}:8/film.mp4"  # never fetched: the simulator plays what it is told
MEDIA_TITLE = "Fault Film"

# The bounds, with room for a 2-core machine shared with builds (see the module doc).
NOTICE_BOUND = 10.0
REJOIN_BOUND = 5.0
SLACK = 1.5


def record(fault, **measured):
    """Appends one trial's measured times to $FAULTS_RESULTS and prints them."""
    row = {"fault": fault, **{k: (round(v, 3) if isinstance(v, float) else v) for k, v in measured.items()}}
    print(f"measured {json.dumps(row)}", flush=True)
    if RESULTS:
        with open(RESULTS, "a") as f:
            f.write(json.dumps(row) + "\n")
    return row


def in_receiver_ns(cmd):
    return ["nsenter", "-t", PEER, "-n", *cmd] if PEER else list(cmd)


# MARK: faults (nft inside the receiver's namespace)

class Faults:
    """nft rules where packets arrive on each end of the veth pair: the receiver's fr0 (in its
    namespace) and the senders' fs0 (here). Dropping on arrival, not on the way out, is what
    a lossy radio does: a packet dropped by an output rule makes the sending socket's write
    fail with EPERM, which no real network does. `clear()` removes them."""

    ENDS = (("fr0", True), ("fs0", False))  # (interface, in the receiver's namespace)

    def _nft(self, script, receiver_side):
        cmd = ["nft", "-f", "-"]
        subprocess.run(in_receiver_ns(cmd) if receiver_side else cmd, input=script, text=True, check=True, timeout=10)

    def clear(self):
        for _, receiver_side in self.ENDS:
            cmd = ["nft", "delete", "table", "inet", "fault"]
            subprocess.run(in_receiver_ns(cmd) if receiver_side else cmd, capture_output=True, timeout=10)

    def _rules(self, verdict):
        self.clear()
        for iface, receiver_side in self.ENDS:
            self._nft(f"""table inet fault {{
  chain inbound {{ type filter hook input priority 0; iifname "{iface}" {verdict}; }}
}}
""", receiver_side)

    def partition(self):
        """Silent: every packet both ways is dropped, so neither end sees a FIN or RST."""
        self._rules("drop")

    def loss(self, percent):
        """Each packet, each way, is dropped with this probability."""
        self._rules(f"numgen random mod 100 < {int(percent)} drop")


# MARK: the simulator

class Receiver:
    """`castctl receiver -v` in the receiver's namespace; its stderr (every message in and
    out) goes to a log the checks read."""

    def __init__(self, port=8009, announce=False, host=None, name=DEVICE_NAME):
        self.host = host or RECEIVER_ADDR
        self.port, self.announce, self.name = port, announce, name
        self.proc = None
        self.logs = []

    @property
    def device(self):
        return self.host if self.port == 8009 else f"{self.host}:{self.port}"

    def start(self, port=None):
        if port is not None:
            self.port = port
        log = WORK / f"receiver-{os.getpid()}-{len(self.logs)}-{time.time_ns()}.log"
        self.logs.append(log)
        cmd = [CASTCTL, "receiver", "--host", self.host, "--port", str(self.port), "--name", self.name,
               "--uuid", DEVICE_UUID, "-v"]
        # On 8009 the setup API answers on 8008 too, as a device does: the window learns the name there.
        if self.port != 8009:
            cmd += ["--setup-port", "0"]
        if self.announce:
            cmd.append("--announce")
        self.proc = subprocess.Popen(in_receiver_ns(cmd), stdout=subprocess.PIPE, stderr=open(log, "wb"), text=True)
        line = self.proc.stdout.readline().strip()
        if not line.startswith("listening on "):
            raise AssertionError(f"the receiver did not start: {line!r}\n{log.read_text()[-2000:]}")
        self.port = int(line.rsplit(":", 1)[1])
        return self

    def kill(self):
        """SIGKILL: no goodbye to anyone."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self):
        stop_process(self.proc)

    def log_text(self):
        return "".join(p.read_text(errors="replace") for p in self.logs if p.exists())

    def requests_in(self, type_name):
        """(sender, requestId) of every request of this type the receiver read, in order."""
        return received_requests(self.log_text(), type_name)


# One line of `castctl receiver -v` per message:
#   … cast.message=SOURCE → DESTINATION [NAMESPACE] {JSON} [CastReceiver] receive
TRACE_LINE = re.compile(r"cast\.message=(?P<src>\S+) → (?P<dst>\S+) \[(?P<ns>[^\]]+)\] (?P<json>\{.*\}) \[\w+\] (?P<dir>receive|send)$")


def received_requests(log, type_name):
    """Every message of `type_name` the simulator read, in order: (source, payload dict)."""
    out = []
    for line in log.splitlines():
        m = TRACE_LINE.search(line)
        if not m or m.group("dir") != "receive" or f'"type":"{type_name}"' not in m.group("json"):
            continue
        try:
            payload = json.loads(m.group("json"))
        except ValueError:
            continue
        if payload.get("type") == type_name:
            out.append((m.group("src"), payload))
    return out


def castctl(device, *args, timeout=30, check=True):
    p = subprocess.run([CASTCTL, *args, "--device", device], capture_output=True, text=True, timeout=timeout)
    if check and p.returncode != 0:
        raise AssertionError(f"castctl {' '.join(args)} exited {p.returncode}: {p.stderr.strip()}")
    return p


def status(device):
    return json.loads(castctl(device, "status", "--json").stdout)


def session_id(device):
    apps = status(device).get("receiver", {}).get("applications") or []
    return next((a["sessionId"] for a in apps if not a.get("isIdleScreen")), None)


def cast_media(device, title=MEDIA_TITLE, url=MEDIA_URL):
    castctl(device, "cast", url, "--title", title, "--content-type", "video/mp4")


# MARK: senders

class Watch:
    """`castctl watch --json` with a reader thread that stamps each event as it arrives."""

    def __init__(self, device, env=None):
        self.proc = subprocess.Popen([CASTCTL, "watch", "--json", "--device", device], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})})
        self.events = []  # (monotonic time, event dict)
        self.cond = threading.Condition()
        self.stderr = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr), daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            with self.cond:
                self.events.append((time.monotonic(), event))
                self.cond.notify_all()
        with self.cond:
            self.cond.notify_all()

    def wait(self, what, predicate, since, timeout):
        """The first event after `since` that satisfies `predicate`: (time, event)."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for t, e in self.events:
                    if t >= since and predicate(e):
                        return t, e
                left = deadline - time.monotonic()
                if left <= 0 or (self.proc.poll() is not None and not self._pending()):
                    raise AssertionError(f"castctl watch: timed out after {timeout:.0f} s waiting for {what}; "
                                         f"states: {self.states()[-6:]}; stderr: {''.join(self.stderr)[-500:]}")
                self.cond.wait(min(left, 0.2))

    def _pending(self):
        return False

    def states(self):
        return [e.get("state") for _, e in self.events if e.get("event") == "state"]

    def cpu_seconds(self):
        return cpu_seconds(self.proc.pid)

    def stop(self):
        stop_process(self.proc)


def is_state(prefix):
    return lambda e: e.get("event") == "state" and (e.get("state") or "").startswith(prefix)


def stop_process(proc):
    """SIGTERM, then SIGKILL if it has not ended within 10 s."""
    if proc and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def cpu_seconds(pid):
    """User + system CPU time of a process so far, from /proc/PID/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return ticks / os.sysconf("SC_CLK_TCK")


# MARK: the delaying proxy

class DelayProxy:
    """A TCP proxy (asyncio, in a thread) that holds every chunk `delay` seconds in each
    direction, keeping order: a 200 ms path without netem."""

    def __init__(self, target_host, target_port, delay=0.2, listen_host=None):
        self.target = (target_host, target_port)
        self.delay = delay
        self.listen_host = listen_host or SENDER_ADDR
        self.port = None
        self.chunks = 0
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        threading.Thread(target=self._run, args=(ready,), daemon=True).start()
        if not ready.wait(10):
            raise AssertionError("the delaying proxy did not start")

    def _run(self, ready):
        asyncio.set_event_loop(self.loop)

        async def start():
            self.server = await asyncio.start_server(self._client, self.listen_host, 0)
            self.port = self.server.sockets[0].getsockname()[1]
            ready.set()
        self.loop.run_until_complete(start())
        self.loop.run_forever()

    async def _client(self, reader, writer):
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer), return_exceptions=True)

    async def _pipe(self, reader, writer):
        queue = asyncio.Queue()

        async def deliver():
            while True:
                due, data = await queue.get()
                await asyncio.sleep(max(0.0, due - self.loop.time()))
                if data is None:
                    writer.close()
                    return
                writer.write(data)
                await writer.drain()
        sender = asyncio.ensure_future(deliver())
        try:
            while True:
                data = await reader.read(65536)
                self.chunks += 1
                await queue.put((self.loop.time() + self.delay, data or None))
                if not data:
                    break
            await sender
        except (ConnectionError, OSError):
            sender.cancel()
            writer.close()

    @property
    def address(self):
        return f"{self.listen_host}:{self.port}"

    def close(self):
        async def shut():
            self.server.close()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self.loop.stop()
        asyncio.run_coroutine_threadsafe(shut(), self.loop)
