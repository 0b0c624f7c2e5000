# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""castctl discover and castctl receiver --announce against avahi-daemon, avahi-publish,
python-zeroconf and pychromecast, all inside mdns-sandbox."""

import json
import os
import subprocess
import sys
import time
import uuid

import pytest

from conftest import HOST, PEER, castctl, connect_and_status, discover, free_port


def find(devices, device_uuid):
    want = device_uuid.hex
    return next((d for d in devices or [] if d["id"] == want), None)


@pytest.fixture
def peer_namespace():
    """Moves veth1 (MDNS_SANDBOX_PEER) into a network namespace of its own for the test, so
    that a foreign mDNS stack there is another host to avahi-daemon (avahi ignores responses
    sent from its own host's addresses), and moves it back afterwards."""
    holder = subprocess.Popen(["unshare", "--net", "sleep", "300"])
    ns = f"/proc/{holder.pid}/ns/net"
    try:
        for _ in range(50):
            if os.path.exists(ns) and os.readlink(ns) != os.readlink("/proc/self/ns/net"):
                break
            time.sleep(0.05)
        sh = lambda cmd: subprocess.run(cmd, shell=True, check=True, timeout=20)
        sh(f"ip link set veth1 netns {holder.pid}")
        sh(f"nsenter --net={ns} sh -c 'ip link set lo up && ip addr add {PEER}/24 dev veth1 && ip link set veth1 up'")
        yield ["nsenter", f"--net={ns}"]
    finally:
        subprocess.run(f"nsenter --net={ns} ip link set veth1 netns {os.getpid()}", shell=True, timeout=20)
        subprocess.run(f"ip addr add {PEER}/24 dev veth1; ip link set veth1 up", shell=True, timeout=20)
        holder.kill()
        holder.wait()


def test_announced_receiver_is_found_by_castctl_discover(receivers, config_home):
    # Port 8009 with model Chromecast: pychromecast knows the model, so it needs no eureka_info.
    sim = receivers(name="Living Room Sim", port=8009)
    devices, err, code = discover("--count", "1")
    assert code == 0, err
    d = find(devices, sim.uuid)
    assert d, f"not found: {devices}"
    assert d["name"] == "Living Room Sim"
    assert d["model"] == "Chromecast"
    assert (d["host"], d["port"]) == (HOST, 8009)
    assert d["isGroup"] is False and d["source"] == "discovered"
    txt = d["txt"]
    assert txt["id"] == sim.uuid.hex and txt["ve"] == "05" and txt["fn"] == "Living Room Sim"
    assert len(txt["cd"]) == 32 and len(txt["bs"]) == 12 and txt["st"] == "0" and txt["ic"] == "/setup/icon.png"
    for key in ("rm", "nf", "rs", "ca"):
        assert key in txt
    # The table form lists the same device with address:port.
    table = subprocess.run([castctl(), "discover", "--timeout", "10", "--count", "1"],
                           capture_output=True, text=True, timeout=30).stdout
    assert table.splitlines()[0].split() == ["NAME", "ID", "MODEL", "ADDRESS", "STATUS"]
    assert any("Living Room Sim" in line and f"{HOST}:8009" in line and sim.uuid.hex in line for line in table.splitlines())


def test_announced_receiver_is_found_and_used_by_pychromecast(receivers, peer_namespace):
    # pychromecast runs on the "other host" (the peer namespace): avahi-daemon does not answer
    # queries that come from its own host's addresses.
    sim = receivers(name="Pychromecast Sim", port=8009)
    done = subprocess.run([*peer_namespace, sys.executable, os.path.join(os.path.dirname(__file__), "pcc_find.py"),
                           PEER, "Pychromecast Sim"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["found"] == 1, seen
    assert seen["uuid"] == str(sim.uuid)
    assert (seen["host"], seen["port"], seen["model"]) == (HOST, 8009, "Chromecast")
    assert seen["status"] is True  # TLS + CONNECT + GET_STATUS to the simulator worked


def test_withdrawn_on_exit(receivers):
    sim = receivers(name="Short Lived", port=free_port())
    devices, err, _ = discover("--count", "1")
    assert find(devices, sim.uuid), err
    assert sim.stop() == 0
    devices, err, _ = discover("--timeout", "3")
    assert not find(devices, sim.uuid), "the service was not withdrawn when the receiver stopped"


def test_zeroconf_published_service_is_found_by_castctl(peer_namespace, config_home):
    device_uuid = uuid.uuid4()
    peer = subprocess.Popen([*peer_namespace, sys.executable, os.path.join(os.path.dirname(__file__), "zc_peer.py"),
                             PEER, device_uuid.hex], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert peer.stdout.readline().strip() == "registered"
        devices, err, code = discover("--count", "1")
        assert code == 0, err
        d = find(devices, device_uuid)
        assert d, f"not found: {devices} {err}"
        assert d["name"] == "Zeroconf Hub" and d["model"] == "Google Nest Hub"
        assert (d["host"], d["port"]) == (PEER, 8009)
        assert d["statusText"] == "Now playing: Elephants Dream" and d["isBusy"] is True
        assert d["capabilities"] == 463365 and d["isGroup"] is False
        # A TXT change made by the foreign stack reaches a running browser as an update.
        watcher = subprocess.Popen([castctl(), "discover", "--json", "--timeout", "8"], stdout=subprocess.PIPE, text=True)
        time.sleep(2)
        peer.stdin.write("rs Now playing: Tears of Steel\n")
        peer.stdin.flush()
        assert peer.stdout.readline().strip() == "updated"
        out, _ = watcher.communicate(timeout=30)
        d = find(json.loads(out), device_uuid)
        assert d and d["statusText"] == "Now playing: Tears of Steel"
    finally:
        if peer.poll() is None:
            peer.stdin.write("quit\n")
            peer.stdin.flush()
            try:
                peer.wait(timeout=10)
            except subprocess.TimeoutExpired:
                peer.kill()


def test_group_on_another_port_is_flagged_and_connected_on_that_port(receivers):
    port = free_port()
    group = receivers("--model", "Google Cast Group", name="Downstairs", port=port)
    devices, err, code = discover("--count", "1")
    assert code == 0, err
    d = find(devices, group.uuid)
    assert d, f"not found: {devices}"
    assert d["isGroup"] is True and d["model"] == "Google Cast Group" and d["port"] == port
    # Connect exactly as to a device, on the group's own port (TLS + CONNECT + GET_STATUS).
    status = connect_and_status(d["host"], d["port"], group.uuid, d["name"], d["model"])
    assert status is not None


def test_name_collision_gets_number_two(receivers):
    import conftest
    first = receivers(name="Twin", port=free_port())
    # Same --uuid means the same "Chromecast-<id>" instance name: the second one is renamed.
    args = [castctl(), "receiver", "--host", HOST, "--port", str(free_port()), "--name", "Twin 2",
            "--uuid", str(first.uuid), "--announce"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    second = conftest.Receiver(proc, HOST, 0, first.uuid, "Twin 2")
    try:
        assert proc.stdout.readline().startswith("listening on ")
        # castctl receiver installs its SIGTERM handler just after that line: let it get there.
        time.sleep(1)
    finally:
        assert second.stop() == 0
    err = proc.stderr.read()
    assert f'announced as "Chromecast-{first.uuid.hex} #2"' in err, err
