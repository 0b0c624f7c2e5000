# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""A bare Cast sender for tests that run with the system Python (no pychromecast): TLS to
the receiver, the CastMessage protobuf written and read by hand (docs/protocol.md §3), and
JSON requests answered by requestId. Used to drive the simulator's test hooks."""
import json
import socket
import ssl
import struct

CONNECTION_NS = "urn:x-cast:com.google.cast.tp.connection"
SIMULATOR_NS = "urn:x-cast:io.github.castdeck.simulator"


def _varint(n):
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        out += bytes([b | (0x80 if n else 0)])
        if not n:
            return out


def _field(num, value):
    if isinstance(value, int):
        return _varint(num << 3) + _varint(value)
    data = value.encode() if isinstance(value, str) else value
    return _varint(num << 3 | 2) + _varint(len(data)) + data


def _read_varint(buf, i):
    shift = n = 0
    while True:
        b = buf[i]
        i += 1
        n |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return n, i


def decode(body):
    """The fields of a CastMessage: {2: source, 3: destination, 4: namespace, 6: payload}."""
    fields, i = {}, 0
    while i < len(body):
        key, i = _read_varint(body, i)
        num, wire = key >> 3, key & 7
        if wire == 0:
            fields[num], i = _read_varint(body, i)
        elif wire == 2:
            n, i = _read_varint(body, i)
            fields[num] = body[i:i + n]
            i += n
        else:
            raise ValueError(f"unexpected wire type {wire}")
    return fields


class RawSender:
    def __init__(self, host, port, source="sender-hostile", timeout=20):
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE  # the simulator's certificate is self-signed
        self.sock = ctx.wrap_socket(socket.create_connection((host, port), timeout=timeout))
        self.source = source
        self.next_id = 1000
        self.send(CONNECTION_NS, "receiver-0", {"type": "CONNECT"})

    def send(self, namespace, destination, payload):
        text = payload if isinstance(payload, str) else json.dumps(payload)
        body = (_field(1, 0) + _field(2, self.source) + _field(3, destination) + _field(4, namespace)
                + _field(5, 0) + _field(6, text))
        self.sock.sendall(struct.pack(">I", len(body)) + body)

    def _read_exact(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("the receiver closed the connection")
            data += chunk
        return data

    def receive(self):
        (n,) = struct.unpack(">I", self._read_exact(4))
        f = decode(self._read_exact(n))
        return f.get(4, b"").decode(), f.get(6, b"").decode()

    def request(self, namespace, destination, payload):
        """Sends `payload` with a fresh requestId and returns the JSON answer carrying it."""
        self.next_id += 1
        payload = dict(payload, requestId=self.next_id)
        self.send(namespace, destination, payload)
        while True:
            ns, text = self.receive()
            if ns == namespace and text:
                data = json.loads(text)
                if data.get("requestId") == self.next_id:
                    return data

    def send_media_status(self, path):
        """The simulator (with --clock manual) sends the file's bytes as a MEDIA_STATUS."""
        return self.request(SIMULATOR_NS, "receiver-0", {"type": "SEND_MEDIA_STATUS", "file": path})

    def close(self):
        self.sock.close()
