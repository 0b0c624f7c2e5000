# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Networks as they are in homes: a host with a second interface (a VPN, a Docker bridge) and a
host with IPv6 turned off. Each case restarts the sandbox's avahi-daemon with the interfaces and
families it needs, so this file runs after test_without_avahi.py (which stops the daemon)."""

import os
import subprocess
import time

import pytest

from conftest import HOST, castctl, discover

SECOND = "10.78.0.1"  # the second network's address on this host (veth2)


def sh(cmd):
    subprocess.run(cmd, shell=True, check=True, timeout=20)


def avahi(interfaces, ipv6, tmp_path):
    """(Re)starts avahi-daemon on `interfaces`, with or without IPv6."""
    subprocess.run(["avahi-daemon", "-k"], capture_output=True)
    for _ in range(100):
        if subprocess.run(["avahi-daemon", "-c"], capture_output=True).returncode != 0:
            break
        time.sleep(0.1)
    conf = tmp_path / "avahi.conf"
    conf.write_text(f"""[server]
use-ipv4=yes
use-ipv6={'yes' if ipv6 else 'no'}
allow-interfaces={','.join(interfaces)}
ratelimit-interval-usec=1000000
ratelimit-burst=1000
[wide-area]
enable-wide-area=no
[publish]
publish-hinfo=no
publish-workstation=no
""")
    subprocess.run(["avahi-daemon", "-f", str(conf), "--no-drop-root", "--no-chroot", "-D"], check=True, timeout=20)
    for _ in range(100):
        if subprocess.run(["avahi-browse", "-a", "-t", "-p"], capture_output=True, timeout=20).returncode == 0:
            return
        time.sleep(0.1)
    raise AssertionError("avahi-daemon did not come up")


@pytest.fixture
def second_network():
    """veth2 (10.78.0.1/24) and its peer veth3: a second network on this host, as a VPN or a
    Docker bridge makes one."""
    sh("ip link add veth2 type veth peer name veth3")
    sh(f"ip addr add {SECOND}/24 dev veth2 && ip addr add 10.78.0.2/24 dev veth3")
    sh("ip link set veth2 up && ip link set veth3 up")
    yield "veth2"
    subprocess.run("ip link del veth2", shell=True, timeout=20)


def announced(name, host="0.0.0.0"):
    """castctl receiver --announce on every address of this host; returns (process, uuid hex)."""
    import uuid
    device = uuid.uuid4()
    proc = subprocess.Popen([castctl(), "receiver", "--host", host, "--port", "0", "--name", name,
                             "--uuid", str(device), "--announce"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert line.startswith("listening on "), f"castctl receiver did not start: {line!r} {proc.stderr.read()}"
    return proc, device.hex


def stop(proc):
    proc.terminate()
    proc.wait(timeout=10)


def mine(devices, device_id):
    return [d for d in devices or [] if d["id"] == device_id]


def test_a_device_seen_on_two_interfaces_is_one_device_and_the_list_can_keep_to_one(second_network, tmp_path, config_home):
    avahi(["veth0", second_network], ipv6=False, tmp_path=tmp_path)
    proc, device_id = announced("Two Networks TV")
    try:
        devices, err, code = discover("--count", "1", timeout=10)
        assert code == 0, err
        found = mine(devices, device_id)
        assert len(found) == 1, f"one device, whichever interfaces it was seen on: {devices}"
        assert found[0]["host"] in (HOST, SECOND)

        # Kept to the second network: found there, at its address on that network.
        devices, err, code = discover("--interface", second_network, "--count", "1", timeout=10)
        assert code == 0, err
        found = mine(devices, device_id)
        assert [d["host"] for d in found] == [SECOND], devices

        # Kept to the first: the address there.
        devices, err, code = discover("--interface", "veth0", "--count", "1", timeout=10)
        assert code == 0, err
        assert [d["host"] for d in mine(devices, device_id)] == [HOST], devices

        # And it answers a real connection at the address found on the second network.
        done = subprocess.run([castctl(), "status", "--device", f"{SECOND}:{found[0]['port']}", "--json"],
                              capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, done.stderr
    finally:
        stop(proc)


def test_an_interface_that_is_not_there_is_said_in_one_sentence(tmp_path, config_home):
    avahi(["veth0"], ipv6=False, tmp_path=tmp_path)
    devices, err, code = discover("--interface", "tun9", timeout=3)
    assert code == 1, (devices, err)
    assert 'no network interface named "tun9"' in err and "veth0" in err, err


def test_discovery_works_with_ipv6_turned_off_on_the_host(tmp_path, config_home):
    sh("sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1")
    try:
        # avahi-daemon configured for IPv6 as distributions ship it, on a kernel without it.
        avahi(["veth0"], ipv6=True, tmp_path=tmp_path)
        proc, device_id = announced("IPv4 Only TV", host=HOST)
        try:
            devices, err, code = discover("--count", "1", timeout=10)
            assert code == 0, err
            found = mine(devices, device_id)
            assert [d["host"] for d in found] == [HOST], devices
            done = subprocess.run([castctl(), "status", "--device", "IPv4 Only TV", "--json"],
                                  capture_output=True, text=True, timeout=30)
            assert done.returncode == 0, done.stderr
        finally:
            stop(proc)
    finally:
        subprocess.run("sysctl -q -w net.ipv6.conf.all.disable_ipv6=0 net.ipv6.conf.default.disable_ipv6=0",
                       shell=True, timeout=20)
