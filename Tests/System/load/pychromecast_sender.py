# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""One pychromecast sender of the load test (run-load.sh): joins the running app and sends
COMMANDS requests (the device's SET_VOLUME on the receiver namespace with a level unique to
this sender and index; PAUSE and PLAY on the media namespace) with up to WINDOW in flight. Each answer pychromecast matches by requestId must carry
that requestId and show the value its request set; anything else is a wrong match. Prints one
JSON line like castdeck-load-sender and exits 1 if anything was lost or wrong.

    pychromecast_sender.py HOST PORT SENDER_INDEX COMMANDS [WINDOW]
"""
import json
import os
import sys
import threading
import time
import uuid

import pychromecast

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from pcc_serial import serialize  # noqa: E402  (the socket is used from two threads)

host, port, index, commands = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
window = int(sys.argv[5]) if len(sys.argv) > 5 else 4
REPLY_TIMEOUT = 30.0

cast = pychromecast.get_chromecast_from_host((host, port, uuid.uuid4(), "Chromecast", "Load TV"),
                                             tries=3, retry_wait=0.5, timeout=10)
cast.wait(timeout=15)
serialize(cast)
mc = cast.media_controller
deadline = time.monotonic() + 15
while mc.status.media_session_id is None and time.monotonic() < deadline:
    mc.update_status()
    time.sleep(0.2)
if mc.status.media_session_id is None:
    print(json.dumps({"sender": f"pychromecast-{index}", "error": "no media session"}))
    sys.exit(1)

msid = mc.status.media_session_id
slots = threading.Semaphore(window)
lock = threading.Lock()
tally = {"sent": 0, "answered": 0, "lost": 0, "wrong": 0}
outstanding = {}
problems = []


def expected_of(i):
    """(label, controller, request, answer type, check of the answer's status)."""
    kind = i % 4
    if kind == 2:
        return "PAUSE", mc, {"type": "PAUSE", "mediaSessionId": msid}, "MEDIA_STATUS", lambda s: s.get("playerState") == "PAUSED"
    if kind == 3:
        return "PLAY", mc, {"type": "PLAY", "mediaSessionId": msid}, "MEDIA_STATUS", lambda s: s.get("playerState") in ("PLAYING", "BUFFERING")
    level = (index * 1_000_000 + i) / 100_000_000
    return "SET_VOLUME", cast.socket_client.receiver_controller, {"type": "SET_VOLUME", "volume": {"level": level}}, \
        "RECEIVER_STATUS", lambda s: (s.get("volume") or {}).get("level") == level


for i in range(commands):
    slots.acquire()
    label, controller, data, answer_type, check = expected_of(i)

    def answered(ok, response, i=i, data=data, check=check, label=label, answer_type=answer_type):
        with lock:
            outstanding.pop(i, None)
            if not ok or response is None:
                tally["lost"] += 1
                problems.append(f"{label} {i}: not answered ({response!r})")
            else:
                tally["answered"] += 1
                status = response.get("status") or {}
                if isinstance(status, list):
                    status = status[0] if status else {}
                if response.get("requestId") != data.get("requestId") or response.get("type") != answer_type or not check(status):
                    tally["wrong"] += 1
                    problems.append(f"{label} {i} (request {data.get('requestId')}): answer {json.dumps(response)[:300]}")
        slots.release()

    with lock:
        tally["sent"] += 1
        outstanding[i] = time.monotonic()
    try:
        controller.send_message(data, callback_function=answered)
    except Exception as e:  # not connected: counted as lost
        with lock:
            if i in outstanding:
                outstanding.pop(i)
                tally["lost"] += 1
                problems.append(f"{label} {i}: {e!r}")
        slots.release()

# Wait for the last answers; whatever is still outstanding after the timeout is lost.
deadline = time.monotonic() + REPLY_TIMEOUT
while time.monotonic() < deadline:
    with lock:
        if not outstanding:
            break
    time.sleep(0.05)
with lock:
    tally["lost"] += len(outstanding)
    result = {"sender": f"pychromecast-{index}", **tally}
    if problems:
        result["first_problem"] = problems[0]
print(json.dumps(result), flush=True)
cast.disconnect(timeout=5)
ok = tally["lost"] == 0 and tally["wrong"] == 0 and tally["answered"] == commands
sys.exit(0 if ok else 1)
