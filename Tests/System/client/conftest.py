# SPDX-License-Identifier: GPL-3.0-or-later
"""Fixtures for the client system tests: a `castctl receiver --port 0` per test (real TLS on
loopback), `castctl` as CastDeck's sender, pychromecast 14.0.10 as the foreign sender."""

import json
import os
import sys
from pathlib import Path
import signal
import subprocess
import time
import uuid

import pychromecast
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from raw_media import RawMediaHandler  # noqa: E402  (shared with the other suite)

HELLO_NS = "urn:x-cast:com.google.cast.sample.helloworld"
CUSTOM_APP = "ABCD1234"
CASTCTL = os.environ.get("CASTCTL")


class Receiver:
    def __init__(self, proc, host, port, device_uuid):
        self.proc, self.host, self.port, self.uuid = proc, host, port, device_uuid

    @property
    def device(self):
        return f"{self.host}:{self.port}"


def start_receiver(extra=(), port=0):
    assert CASTCTL, "run through Tests/System/run-client.sh (CASTCTL not set)"
    device_uuid = uuid.uuid4()
    proc = subprocess.Popen(
        [CASTCTL, "receiver", "--port", str(port), "--name", "Test TV", "--uuid", str(device_uuid),
         "--app", f"{CUSTOM_APP}={HELLO_NS},urn:x-cast:com.example.game", "-v", *extra],
        stdout=subprocess.PIPE, stderr=open(os.environ.get("CASTDECK_RECEIVER_LOG", os.devnull), "ab"), text=True)
    line = proc.stdout.readline().strip()
    assert line.startswith("listening on "), f"unexpected first line: {line!r}"
    host, p = line[len("listening on "):].rsplit(":", 1)
    return Receiver(proc, host, int(p), device_uuid)


def stop_receiver(rcv):
    if rcv.proc.poll() is None:
        rcv.proc.send_signal(signal.SIGTERM)
        try:
            rcv.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            rcv.proc.kill()
            rcv.proc.wait()


@pytest.fixture
def receiver(request):
    extra = getattr(request, "param", ())
    rcv = start_receiver(extra)
    try:
        yield rcv
    finally:
        stop_receiver(rcv)


def castctl(rcv, *args, timeout=30, check=True, device=True):
    """Runs castctl against the receiver; returns the CompletedProcess."""
    cmd = [CASTCTL, *args]
    if device:
        cmd += ["--device", rcv.device]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                       env={**os.environ, "XDG_STATE_HOME": os.environ.get("CASTDECK_TEST_STATE", "/tmp")})
    if check:
        assert p.returncode == 0, f"castctl {' '.join(args)} exited {p.returncode}: {p.stderr}"
    return p


def castctl_json(rcv, *args, **kw):
    p = castctl(rcv, *args, "--json", **kw)
    return json.loads(p.stdout)


def connect_pychromecast(rcv):
    cast = pychromecast.get_chromecast_from_host(
        (rcv.host, rcv.port, rcv.uuid, "Chromecast", "Test TV"), tries=3, retry_wait=0.5, timeout=10)
    raw = RawMediaHandler()
    cast.register_handler(raw)
    cast.wait(timeout=15)
    return cast, raw


@pytest.fixture
def pycast(receiver):
    cast, raw = connect_pychromecast(receiver)
    try:
        yield cast, raw
    finally:
        cast.disconnect(timeout=5)


def wait_until(predicate, timeout=10, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")
