# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""A Cast device published by python-zeroconf (a foreign mDNS stack). Run inside the peer
network namespace that test_discovery.py makes. Prints "registered", then reads lines from
stdin: "rs TEXT" changes the status text in place, "quit" unregisters and exits."""

import socket
import sys

import zeroconf

host, device_id = sys.argv[1], sys.argv[2]
props = {"id": device_id, "cd": "0" * 32, "rm": "", "ve": "05", "md": "Google Nest Hub", "ic": "/setup/icon.png",
         "fn": "Zeroconf Hub", "ca": "463365", "st": "1", "bs": "FA8FCA7B4DCD", "nf": "1",
         "rs": "Now playing: Elephants Dream"}


def info():
    return zeroconf.ServiceInfo(
        "_googlecast._tcp.local.", f"Google-Nest-Hub-{device_id}._googlecast._tcp.local.",
        addresses=[socket.inet_aton(host)], port=8009, server=f"{device_id}.local.", properties=dict(props))


zc = zeroconf.Zeroconf(interfaces=[host])
zc.register_service(info())
print("registered", flush=True)
for line in sys.stdin:
    command, _, arg = line.strip().partition(" ")
    if command == "rs":
        props["rs"] = arg
        zc.update_service(info())
        print("updated", flush=True)
    elif command == "quit":
        break
zc.unregister_all_services()
zc.close()
