# SPDX-License-Identifier: GPL-3.0-or-later
"""pychromecast's TLS socket used from one thread at a time.

pychromecast reads (and answers PINGs) on its own thread while a test calls it from the main
thread; an SSL socket written and read from two threads at once corrupts its records (seen as
"[SSL: BAD_LENGTH] bad length" in pychromecast and BAD_DECRYPT at the receiver). serialize(cast)
puts every recv and send of that socket, and of each socket a reconnect makes, under one lock.
pychromecast reads only after select() says there is data, so the lock is held briefly."""
import ssl
import threading


class _OneAtATime:
    def __init__(self, sock, lock):
        self._sock = sock
        self._lock = lock

    def recv(self, *a, **kw):
        with self._lock:
            return self._sock.recv(*a, **kw)

    def sendall(self, *a, **kw):
        with self._lock:
            return self._sock.sendall(*a, **kw)

    def send(self, *a, **kw):
        with self._lock:
            return self._sock.send(*a, **kw)

    def __getattr__(self, name):
        return getattr(self._sock, name)


def serialize(cast):
    client = cast.socket_client
    lock = threading.Lock()

    def get(self):
        return self.__dict__.get("_serial_socket")

    def put(self, value):
        # Only the TLS socket is wrapped: the plain one is handed to ssl.wrap_socket as it is.
        self.__dict__["_serial_socket"] = _OneAtATime(value, lock) if isinstance(value, ssl.SSLSocket) else value

    # pychromecast's thread may be running: the wrapped socket is in place before the property
    # that returns it, and the plain attribute goes only after, so `socket` is never missing.
    put(client, client.__dict__.get("socket"))
    client.__class__ = type("SerialSocketClient", (type(client),), {"socket": property(get, put)})
    client.__dict__.pop("socket", None)
    return cast
