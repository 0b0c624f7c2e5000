# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""With avahi-daemon stopped (and with no system bus at all): one clear sentence, no hang,
no crash, and devices added by address still work. Runs last: it stops the sandbox's daemon."""

import json
import os
import subprocess
import time

from conftest import HOST, NOT_RUNNING, castctl, connect_and_status, discover, free_port


def stop_avahi():
    subprocess.run(["avahi-daemon", "-k"], capture_output=True)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if subprocess.run(["avahi-daemon", "-c"], capture_output=True).returncode != 0:
            return
        time.sleep(0.1)
    raise AssertionError("avahi-daemon did not stop")


def test_without_avahi_devices_by_address_still_work(receivers, config_home):
    stop_avahi()
    sim = receivers(name="Wired TV", announce=False)
    address = f"{sim.host}:{sim.port}"

    devices, err, code = discover("--add", address, timeout=10)
    assert NOT_RUNNING in err
    assert code == 0, err
    assert [d["address"] for d in devices] == [address]
    assert devices[0]["source"] == "manual"
    stored = json.loads((config_home / "castdeck" / "devices.json").read_text())
    assert stored["devices"][0]["host"] == sim.host and stored["devices"][0]["port"] == sim.port

    # Remembered: listed again without --add, and it answers a real Cast connection.
    devices, err, code = discover(timeout=10)
    assert NOT_RUNNING in err and code == 0
    assert [d["address"] for d in devices] == [address]
    assert connect_and_status(devices[0]["host"], devices[0]["port"], sim.uuid, "Wired TV") is not None

    # Probed with connect + GET_STATUS: once an app runs, its status text is listed.
    subprocess.run([castctl(), "cast", "https://example.com/a.mp4", "--title", "A", "--device", address],
                   check=True, capture_output=True, timeout=60)
    devices, err, code = discover(timeout=5)
    assert code == 0 and devices[0]["statusText"] == "Default Media Receiver", devices

    # A device that refuses the connection says so instead of showing nothing.
    refused = config_home.parent / "refused"
    done = subprocess.run([castctl(), "discover", "--add", "127.0.0.1:1", "--json", "--timeout", "5"],
                          capture_output=True, text=True, timeout=30, env={**os.environ, "XDG_CONFIG_HOME": str(refused)})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["statusText"].startswith("Not answering"), done.stdout

    # Nothing known and no Avahi: the sentence and a failure status, quickly.
    empty = config_home.parent / "empty"
    done = subprocess.run([castctl(), "discover", "--timeout", "30"], capture_output=True, text=True, timeout=20,
                          env={**os.environ, "XDG_CONFIG_HOME": str(empty)})
    assert done.returncode == 1 and NOT_RUNNING in done.stderr

    # Announcing without Avahi fails with the same sentence instead of hanging.
    done = subprocess.run([castctl(), "receiver", "--host", HOST, "--port", str(free_port()), "--announce"],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 1 and NOT_RUNNING in done.stderr, done.stderr


def test_without_system_bus(config_home):
    env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/bus"}
    done = subprocess.run([castctl(), "discover", "--add", "192.0.2.7:8009", "--json"], capture_output=True,
                          text=True, timeout=20, env=env)
    assert NOT_RUNNING in done.stderr and done.returncode == 0
    assert [d["address"] for d in json.loads(done.stdout)] == ["192.0.2.7:8009"]


def test_without_the_avahi_library(config_home):
    """Avahi's client library is opened when discovery starts, not when castctl starts: when it
    cannot be opened, discovery says which package to install and devices added by address
    still work. (CASTDECK_AVAHI_LIBRARY points the loader at a file that does not exist.)"""
    env = {**os.environ, "CASTDECK_AVAHI_LIBRARY": "/nonexistent/libavahi-client.so.3"}
    done = subprocess.run([castctl(), "discover", "--add", "192.0.2.9:8009", "--json", "--timeout", "5"],
                          capture_output=True, text=True, timeout=30, env=env)
    assert done.returncode == 0, done.stderr
    assert "Avahi's client library could not be loaded" in done.stderr, done.stderr
    assert "/nonexistent/libavahi-client.so.3" in done.stderr and "install libavahi-client3" in done.stderr
    assert "192.0.2.9:8009" in [d["address"] for d in json.loads(done.stdout)]

    # Nothing added: the same sentence and a failure status, without waiting for the timeout.
    empty = config_home.parent / "no-library"
    done = subprocess.run([castctl(), "discover", "--timeout", "30"], capture_output=True, text=True, timeout=20,
                          env={**env, "XDG_CONFIG_HOME": str(empty)})
    assert done.returncode == 1 and "install libavahi-client3" in done.stderr, done.stderr

    # Programs that never browse do not need the library at all.
    assert "libavahi" not in subprocess.run(["ldd", castctl()], capture_output=True, text=True).stdout
