# SPDX-License-Identifier: GPL-3.0-or-later
"""The device comes back on another port and announces it over mDNS (issue 17): a sender that
named it by its id finds it again and follows it. Runs inside ../shared/scripts/mdns-sandbox
(a private network namespace with its own avahi-daemon), started by run-faults.sh."""
import os
import socket
import time

import pytest

from faultlib import (DEVICE_UUID, REJOIN_BOUND, SLACK, Receiver, Watch, cast_media, is_state, record,
                      session_id)
from scenarios import SESSION_IN_STATE

HOST = os.environ.get("MDNS_SANDBOX_HOST")
TRIALS = int(os.environ.get("TRIALS", "1"))
pytestmark = pytest.mark.skipif(not HOST, reason="runs inside mdns-sandbox (Tests/System/run-faults.sh)")


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def test_device_back_on_another_port_is_found_by_id_and_followed():
    receiver = Receiver(port=free_port(), announce=True, host=HOST).start()
    watch = None
    try:
        cast_media(f"{HOST}:{receiver.port}")
        device_id = DEVICE_UUID.replace("-", "")
        watch = Watch(device_id)  # by id: resolved through avahi, and again before each reconnect
        watch.wait("the session joined", is_state("connected to"), 0, 30)
        for i in range(TRIALS):
            old = receiver.port
            t0 = time.monotonic()
            receiver.kill()
            watch.wait("the watch to notice", is_state("resuming"), t0, 15)
            receiver.start(port=free_port())
            t1 = time.monotonic()
            assert receiver.port != old
            device = f"{HOST}:{receiver.port}"
            cast_media(device, title=f"Moved {i}")  # another sender, at the new address
            wanted = session_id(device)
            # mDNS needs its own time (avahi probes the name before announcing): the bound is
            # the rejoin bound plus the announcement.
            t2, e = watch.wait("the watch to follow the device to its new port", is_state("connected to"), t1,
                               REJOIN_BOUND * SLACK + 5)
            m = SESSION_IN_STATE.search(e["state"])
            assert m and m.group(1) == wanted, f"joined {e['state']!r}, the device runs {wanted}"
            assert "sender connected" in receiver.logs[-1].read_text(errors="replace")
            record("mdns-new-port", rejoin_watch=t2 - t1)
    finally:
        if watch:
            watch.stop()
        receiver.stop()
