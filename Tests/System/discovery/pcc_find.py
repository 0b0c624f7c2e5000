# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""pychromecast's own discovery (python-zeroconf) from the peer namespace: finds a device by
friendly name, connects to it (TLS, CONNECT, GET_STATUS) and prints what it saw as JSON."""

import json
import sys

import pychromecast
import zeroconf

interface, name = sys.argv[1], sys.argv[2]
zc = zeroconf.Zeroconf(interfaces=[interface])
casts, browser = pychromecast.get_listed_chromecasts(friendly_names=[name], discovery_timeout=15, zeroconf_instance=zc)
result = {"found": len(casts)}
if casts:
    cast = casts[0]
    cast.wait(timeout=15)
    result.update(uuid=str(cast.uuid), host=cast.cast_info.host, port=cast.cast_info.port,
                  model=cast.cast_info.model_name, status=cast.status is not None)
    cast.disconnect(timeout=5)
browser.stop_discovery()
zc.close()
print(json.dumps(result), flush=True)
