# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Helpers for the discovery system tests: they run inside mdns-sandbox only."""

import json
import os
import signal
import socket
import subprocess
import uuid

import pytest

HOST = os.environ.get("MDNS_SANDBOX_HOST", "")
PEER = os.environ.get("MDNS_SANDBOX_PEER", "")
NOT_RUNNING = "Avahi is not running: start avahi-daemon, or add a device by its address"


def castctl():
    path = os.environ.get("CASTCTL")
    assert path, "run through Tests/System/run-discovery.sh (CASTCTL not set)"
    assert HOST, "run inside ../shared/scripts/mdns-sandbox (MDNS_SANDBOX_HOST not set)"
    return path


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class Receiver:
    def __init__(self, proc, host, port, device_uuid, name):
        self.proc, self.host, self.port, self.uuid, self.name = proc, host, port, device_uuid, name

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                return self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                raise AssertionError("castctl receiver did not stop on SIGTERM")
        return self.proc.returncode


def start_receiver(*extra, name="Sandbox Simulator", port=0, announce=True):
    device_uuid = uuid.uuid4()
    args = [castctl(), "receiver", "--host", HOST, "--port", str(port), "--name", name, "--uuid", str(device_uuid)]
    if announce:
        args.append("--announce")
    proc = subprocess.Popen(args + list(extra), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline().strip()
    if not line.startswith("listening on "):
        proc.kill()
        raise AssertionError(f"castctl receiver did not start: {line!r} {proc.stderr.read()}")
    host, bound = line[len("listening on "):].rsplit(":", 1)
    return Receiver(proc, host, int(bound), device_uuid, name)


@pytest.fixture
def receivers():
    started = []

    def start(*extra, **kw):
        r = start_receiver(*extra, **kw)
        started.append(r)
        return r

    yield start
    for r in started:
        assert r.stop() == 0


@pytest.fixture(autouse=True)
def config_home(tmp_path, monkeypatch):
    """Every test gets its own XDG_CONFIG_HOME: devices added by address elsewhere (the
    user's own, or another test's) never count towards `discover --count`."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config"


def discover(*args, timeout=10):
    """Runs castctl discover --json; returns (devices, stderr, exit code)."""
    done = subprocess.run([castctl(), "discover", "--json", "--timeout", str(timeout), *args],
                          capture_output=True, text=True, timeout=timeout + 20)
    devices = json.loads(done.stdout) if done.stdout.strip().startswith("[") else None
    return devices, done.stderr, done.returncode


def connect_and_status(host, port, device_uuid, name, model="Chromecast"):
    """A real Cast connection through pychromecast: TLS to HOST:PORT, CONNECT, receiver
    GET_STATUS. Returns the receiver status pychromecast got."""
    import pychromecast

    cast = pychromecast.get_chromecast_from_host((host, port, device_uuid, model, name))
    try:
        cast.wait(timeout=15)
        assert cast.status is not None, f"no RECEIVER_STATUS from {host}:{port}"
        return cast.status
    finally:
        cast.disconnect(timeout=5)
