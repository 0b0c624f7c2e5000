# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""A simulated speaker group announced over mDNS inside mdns-sandbox: every member is found by
its name through the group (`castctl volume --member NAME`: the multizone deviceId is the
member's mDNS id), and a leader that moves to another port is found there again and rejoined
(`castctl watch`), as real groups move when another speaker takes the lead."""

import os
import re
import signal
import subprocess
import sys
import threading
import uuid
from pathlib import Path

from conftest import HOST, castctl, discover

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from castraw import RawSender  # noqa: E402

SIM_NS = "urn:x-cast:io.github.castdeck.simulator"
MEMBER_LINE = re.compile(r"^member (.+) listening on (\S+):(\d+) id ([0-9a-f]{32})$")


def wait_for(predicate, what, timeout=20):
    import time
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def start_group():
    group_uuid = uuid.uuid4()
    proc = subprocess.Popen(
        [castctl(), "receiver", "--host", HOST, "--port", "0", "--group", "Upstairs", "--members", "Kitchen speaker,Hall",
         "--uuid", str(group_uuid), "--announce", "--test-hooks"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline().strip()
    assert line.startswith("listening on "), f"castctl receiver --group did not start: {line!r}"
    port = int(line.rsplit(":", 1)[1])
    members = {}
    for _ in range(2):
        m = MEMBER_LINE.match(proc.stdout.readline().strip())
        assert m
        members[m.group(1)] = (m.group(2), int(m.group(3)), m.group(4))
    return proc, group_uuid, port, members


def stop(proc):
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=15) == 0


def run(*args):
    return subprocess.run([castctl(), *args], capture_output=True, text=True, timeout=40)


def test_members_are_found_by_name_and_the_group_is_a_group(config_home):
    proc, group_uuid, port, members = start_group()
    try:
        devices, err, code = discover("--count", "3")
        assert code == 0, err
        by_id = {d["id"]: d for d in devices}
        group = by_id[group_uuid.hex]
        assert group["isGroup"] is True and group["port"] == port and group["model"] == "Google Cast Group"
        # (Each member is a speaker on a port of its own here, one host for all; discovery's
        # rule that a port other than 8009 means a group flags them too: not asserted.)
        for name, (_, member_port, hex_id) in members.items():
            assert by_id[hex_id]["name"] == name and by_id[hex_id]["port"] == member_port and by_id[hex_id]["model"] == "Google Nest Mini"
        done = run("volume", "0.2", "--device", "Upstairs", "--member", "Kitchen speaker")
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "Kitchen speaker: volume 20 %"
        # On the member's own connection, found by its own name.
        assert "Volume:  20 %" in run("status", "--device", "Kitchen speaker").stdout
        assert "Volume:  60 %" in run("status", "--device", "Hall").stdout
        assert "Members: Kitchen speaker · 20 %, Hall · 60 %" in run("status", "--device", "Upstairs").stdout
    finally:
        stop(proc)


def test_a_leader_that_moves_port_is_found_again_and_rejoined(config_home):
    proc, group_uuid, port, members = start_group()
    watch = None
    try:
        done = run("cast", "https://example.com/radio.mp3", "--device", "Upstairs")
        assert done.returncode == 0, done.stderr
        watch = subprocess.Popen([castctl(), "watch", "--device", "Upstairs"], stdout=subprocess.PIPE, text=True)
        lines = []
        threading.Thread(target=lambda: lines.extend(iter(watch.stdout.readline, "")), daemon=True).start()
        wait_for(lambda: any(l.startswith("group: Members: Kitchen speaker") for l in lines), "watch to list the members")
        raw = RawSender(HOST, port)
        raw.request(SIM_NS, "receiver-0", {"type": "GROUP_LEADER_MOVE"})
        wait_for(lambda: any(l.startswith("group leader moved to ") for l in lines), "watch to rejoin the moved leader", timeout=40)
        moved = next(l for l in lines if l.startswith("group leader moved to "))
        new_port = int(re.match(r"group leader moved to \S+:(\d+), rejoined", moved).group(1))
        assert new_port != port
        devices, err, code = discover("--count", "3")
        assert code == 0, err
        assert {d["id"]: d for d in devices}[group_uuid.hex]["port"] == new_port
        status = run("status", "--device", "Upstairs")
        assert "radio.mp3" in status.stdout or "PLAYING" in status.stdout, status.stdout
        assert "Members: Kitchen speaker" in status.stdout
    finally:
        if watch:
            watch.send_signal(signal.SIGINT)
            watch.wait(timeout=10)
        stop(proc)
