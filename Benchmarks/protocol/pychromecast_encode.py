# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""pychromecast's own sending path for one message, applied to the realistic MEDIA_STATUS:
json.dumps of the dict into its generated cast_channel_pb2.CastMessage, then the 4-byte
length and the serialised envelope, as its socket client's send_message does. The dict is
read from the frame once, before timing. Prints messages per second for the given duration."""
import json
import struct
import sys
import time

from pychromecast.generated import cast_channel_pb2

frame = open(sys.argv[1], "rb").read()
seconds = float(sys.argv[2])
(length,) = struct.unpack(">I", frame[:4])
parsed = cast_channel_pb2.CastMessage()
parsed.ParseFromString(frame[4 : 4 + length])
data = json.loads(parsed.payload_utf8)


def encode_once():
    msg = cast_channel_pb2.CastMessage()
    msg.protocol_version = msg.CASTV2_1_0
    msg.source_id = "web-7"
    msg.destination_id = "sender-1"
    msg.payload_type = cast_channel_pb2.CastMessage.STRING
    msg.namespace = "urn:x-cast:com.google.cast.media"
    msg.payload_utf8 = json.dumps(data, ensure_ascii=False)
    out = struct.pack(">I", msg.ByteSize()) + msg.SerializeToString()
    return len(out) > 0


encode_once()
n = 0
start = time.perf_counter()
deadline = start + seconds
while time.perf_counter() < deadline:
    for _ in range(100):
        n += encode_once()
print(n / (time.perf_counter() - start))
