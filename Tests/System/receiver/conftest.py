# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Fixtures: a fresh `castctl receiver --port 0 --clock manual` per test, and helpers
to drive it with pychromecast 14.0.10 over real TLS on loopback (no discovery)."""

import os
import sys
from pathlib import Path
import signal
import subprocess
import threading
import time
import uuid

import pychromecast
import pytest
from pychromecast.controllers import BaseController

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from raw_media import RawMediaHandler  # noqa: E402  (shared with the other suite)

SIM_NS = "urn:x-cast:io.github.castdeck.simulator"
# Set by run-receiver.sh; counts the reconnect/retry docs/protocol.md §18 allows.
RETRY_LOG = os.environ.get("CASTDECK_RETRY_LOG")


class Receiver:
    def __init__(self, proc, host, port, device_uuid):
        self.proc, self.host, self.port, self.uuid = proc, host, port, device_uuid


@pytest.fixture
def receiver():
    castctl = os.environ.get("CASTCTL")
    assert castctl, "run through Tests/System/run-receiver.sh (CASTCTL not set)"
    device_uuid = uuid.uuid4()
    proc = subprocess.Popen(
        [castctl, "receiver", "--port", "0", "--clock", "manual", "--name", "Test TV",
         "--uuid", str(device_uuid), "-v"],
        stdout=subprocess.PIPE, stderr=open(os.environ.get("CASTDECK_RECEIVER_LOG", os.devnull), "ab"),
        text=True)
    try:
        line = proc.stdout.readline().strip()
        assert line.startswith("listening on "), f"unexpected first line: {line!r}"
        host, port = line[len("listening on "):].rsplit(":", 1)
        yield Receiver(proc, host, int(port), device_uuid)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            code = proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise AssertionError("castctl receiver did not stop on SIGTERM")
        assert code == 0, f"castctl receiver exited with {code} on SIGTERM"


class SimulatorControl(BaseController):
    """The simulator's test hook on receiver-0: ADVANCE_CLOCK moves the manual clock."""

    def __init__(self):
        super().__init__(SIM_NS, target_platform=True)

    def receive_message(self, _message, _data):
        return True

    def advance(self, seconds, timeout=10):
        done = threading.Event()
        result = {}

        def callback(ok, data):
            result["ok"], result["data"] = ok, data
            done.set()

        self.send_message({"type": "ADVANCE_CLOCK", "seconds": seconds}, callback_function=callback)
        assert done.wait(timeout), "ADVANCE_CLOCK was not answered"
        assert result["ok"], f"ADVANCE_CLOCK failed: {result}"
        return result["data"]["now"]


def connect(rcv):
    """A pychromecast Chromecast for host+port, without discovery."""
    cast = pychromecast.get_chromecast_from_host(
        (rcv.host, rcv.port, rcv.uuid, "Chromecast", "Test TV"), tries=3, retry_wait=0.5, timeout=10)
    raw = RawMediaHandler()
    control = SimulatorControl()
    cast.register_handler(raw)
    cast.register_handler(control)
    cast.wait(timeout=15)
    return cast, raw, control


def wait_until(predicate, timeout=10, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def note_retry(what):
    if RETRY_LOG:
        with open(RETRY_LOG, "a") as f:
            f.write(what + "\n")
