# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""pychromecast's own decoding path for one frame: the 4-byte length, its generated
cast_channel_pb2.CastMessage, and json.loads of the payload, as its socket client does.
Prints messages per second for the given duration."""
import json
import struct
import sys
import time

from pychromecast.generated import cast_channel_pb2

frame = open(sys.argv[1], "rb").read()
seconds = float(sys.argv[2])


def decode_once():
    (length,) = struct.unpack(">I", frame[:4])
    msg = cast_channel_pb2.CastMessage()
    msg.ParseFromString(frame[4 : 4 + length])
    data = json.loads(msg.payload_utf8)
    return len(data["status"])


decode_once()
n = 0
start = time.perf_counter()
deadline = start + seconds
while time.perf_counter() < deadline:
    for _ in range(100):
        n += decode_once()
print(n / (time.perf_counter() - start))
