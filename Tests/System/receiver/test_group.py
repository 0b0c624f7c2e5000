# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""A simulated speaker group (`castctl receiver --group NAME --members A,B`) driven by castctl
and by pychromecast 14.0.10, whose MultizoneController reads MULTIZONE_STATUS as a second
opinion. A member's volume is always checked on the member's own connection."""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pychromecast
import pytest
from pychromecast.controllers.multizone import MultizoneController, MultiZoneControllerListener

from conftest import SimulatorControl, wait_until

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from castraw import RawSender  # noqa: E402

SIM_NS = "urn:x-cast:io.github.castdeck.simulator"
MEMBER_LINE = re.compile(r"^member (.+) listening on (\S+):(\d+) id ([0-9a-f]{32})$")


class Member:
    def __init__(self, name, host, port, hex_id):
        self.name, self.host, self.port, self.uuid = name, host, port, uuid.UUID(hex_id)

    @property
    def address(self):
        return f"{self.host}:{self.port}"


class Group:
    def __init__(self, proc, host, port, group_uuid, members):
        self.proc, self.host, self.port, self.uuid, self.members = proc, host, port, group_uuid, members

    @property
    def address(self):
        return f"{self.host}:{self.port}"


@pytest.fixture
def group():
    castctl = os.environ["CASTCTL"]
    group_uuid = uuid.uuid4()
    proc = subprocess.Popen(
        [castctl, "receiver", "--port", "0", "--group", "Downstairs", "--members", "Kitchen speaker,Hall",
         "--uuid", str(group_uuid), "--test-hooks", "-v"],
        stdout=subprocess.PIPE, stderr=open(os.environ.get("CASTDECK_RECEIVER_LOG", os.devnull), "ab"), text=True)
    try:
        line = proc.stdout.readline().strip()
        assert line.startswith("listening on "), f"unexpected first line: {line!r}"
        host, port = line[len("listening on "):].rsplit(":", 1)
        members = []
        for _ in range(2):
            m = MEMBER_LINE.match(proc.stdout.readline().strip())
            assert m, "no member line"
            members.append(Member(m.group(1), m.group(2), int(m.group(3)), m.group(4)))
        yield Group(proc, host, int(port), group_uuid, members)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            assert proc.wait(timeout=10) == 0, "castctl receiver --group did not exit 0 on SIGTERM"
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise AssertionError("castctl receiver --group did not stop on SIGTERM")


def castctl(*args, check=True):
    p = subprocess.run([os.environ["CASTCTL"], *args], capture_output=True, text=True, timeout=30)
    if check:
        assert p.returncode == 0, f"castctl {' '.join(args)}: {p.returncode} {p.stderr}"
    return p


def chromecast(host, port, device_uuid, model, name):
    cast = pychromecast.get_chromecast_from_host((host, port, device_uuid, model, name), tries=3, retry_wait=0.5, timeout=10)
    cast.wait(timeout=15)
    return cast


class Members(MultiZoneControllerListener):
    def __init__(self):
        self.added, self.removed = [], []

    def multizone_member_added(self, group_uuid):
        self.added.append(group_uuid)

    def multizone_member_removed(self, group_uuid):
        self.removed.append(group_uuid)

    def multizone_status_received(self):
        pass


def follow_group(g):
    """pychromecast on the group, with its multizone controller asking for the members."""
    cast = chromecast(g.host, g.port, g.uuid, "Google Cast Group", "Downstairs")
    mz = MultizoneController(g.uuid)
    listener = Members()
    mz.register_listener(listener)
    cast.register_handler(mz)
    mz.update_members()
    return cast, mz, listener


def test_members_as_castctl_and_pychromecast_read_them(group):
    cast, mz, _ = follow_group(group)
    try:
        wanted = {str(m.uuid) for m in group.members}
        wait_until(lambda: set(mz.members) == wanted, what="pychromecast's multizone controller to list both members")
        report = json.loads(castctl("status", "--device", group.address, "--json").stdout)["group"]
        assert [m["id"] for m in report["members"]] == [str(m.uuid) for m in group.members]
        assert [m["name"] for m in report["members"]] == ["Kitchen speaker", "Hall"]
        assert report["isMultichannel"] is False
        text = castctl("status", "--device", group.address).stdout
        assert "Members: Kitchen speaker · 60 %, Hall · 60 %" in text, text
    finally:
        cast.disconnect(timeout=5)


def test_member_volume_changes_only_that_member_on_its_own_connection(group):
    kitchen, hall = group.members
    kc = chromecast(kitchen.host, kitchen.port, kitchen.uuid, "Google Nest Mini", kitchen.name)
    hc = chromecast(hall.host, hall.port, hall.uuid, "Google Nest Mini", hall.name)
    try:
        out = castctl("volume", "0.25", "--device", group.address, "--member", kitchen.address).stdout
        assert "volume 25 %" in out, out
        wait_until(lambda: kc.status is not None and abs(kc.status.volume_level - 0.25) < 1e-6, what="Kitchen's own volume")
        assert abs(hc.status.volume_level - 0.6) < 1e-6, "the other member changed too"
        members = json.loads(castctl("status", "--device", group.address, "--json").stdout)["group"]["members"]
        assert [m["volume"] for m in members] == [0.25, 0.6]
        # The group volume scales every member, each heard on its own connection.
        gc = chromecast(group.host, group.port, group.uuid, "Google Cast Group", "Downstairs")
        gc.set_volume(0.3)
        wait_until(lambda: abs(kc.status.volume_level - 0.125) < 1e-6 and abs(hc.status.volume_level - 0.3) < 1e-6,
                   what="both members scaled by the group volume")
        gc.disconnect(timeout=5)
        # A name needs discovery (the discovery suite tests it); a wrong one is refused clearly.
        p = castctl("volume", "0.5", "--device", group.address, "--member", "Attic", check=False)
        assert p.returncode == 1 and "no member “Attic”" in p.stderr and "Kitchen speaker, Hall" in p.stderr, p.stderr
        p = castctl("volume", "0.5", "--device", kitchen.address, "--member", "Hall", "--timeout", "5", check=False)
        assert p.returncode == 1 and "is not a speaker group" in p.stderr, p.stderr
    finally:
        kc.disconnect(timeout=5)
        hc.disconnect(timeout=5)


def test_a_load_to_the_group_plays_on_every_member(group):
    cast = chromecast(group.host, group.port, group.uuid, "Google Cast Group", "Downstairs")
    try:
        url = "https://example.com/radio.mp3"
        cast.media_controller.play_media(url, "audio/mpeg")
        cast.media_controller.block_until_active(timeout=15)
        wait_until(lambda: cast.media_controller.status.player_state == "PLAYING", what="the group to play")
        for member in group.members:
            status = json.loads(castctl("status", "--device", member.address, "--json").stdout)
            assert status["media"]["media"]["contentId"] == url, status
            assert status["media"]["playerState"] == "PLAYING", status
            assert status["session"]["sessionID"] == cast.status.session_id
        # A member's PAUSE pauses the group.
        castctl("pause", "--device", group.members[1].address)
        wait_until(lambda: cast.media_controller.status.player_state == "PAUSED", what="the group to pause")
    finally:
        cast.disconnect(timeout=5)


def test_a_member_that_leaves_is_said(group):
    cast, mz, listener = follow_group(group)
    hall = group.members[1]
    watch = subprocess.Popen([os.environ["CASTCTL"], "watch", "--device", group.address], stdout=subprocess.PIPE, text=True)
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(iter(watch.stdout.readline, "")), daemon=True)
    reader.start()
    try:
        wait_until(lambda: any(l.startswith("group: Members: Kitchen speaker") for l in lines), what="watch to list the members")
        wait_until(lambda: len(mz.members) == 2, what="pychromecast to list the members")
        raw = RawSender(group.host, group.port)
        answer = raw.request(SIM_NS, "receiver-0", {"type": "GROUP_MEMBER_LEAVE", "member": "Hall"})
        assert answer["type"] == "CLOCK", answer
        raw.close()
        wait_until(lambda: "group: Hall left the group\n" in lines, what="watch to say Hall left")
        wait_until(lambda: listener.removed == [str(hall.uuid)], what="pychromecast to see Hall removed")
        assert mz.members == [str(group.members[0].uuid)]
        p = castctl("status", "--device", hall.address, "--timeout", "3", check=False)
        assert p.returncode == 1, "the member that left still answers"
    finally:
        watch.send_signal(signal.SIGINT)
        watch.wait(timeout=10)
        cast.disconnect(timeout=5)
