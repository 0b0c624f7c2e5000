# SPDX-License-Identifier: GPL-3.0-or-later
"""The pychromecast equivalent of `castctl status --json`: connect by host and port,
read the receiver status, join the running app's media channel, read the media status,
print them as JSON, exit."""
import json
import sys
import uuid

import pychromecast

host, port = sys.argv[1].rsplit(":", 1)
cast = pychromecast.get_chromecast_from_host((host, int(port), uuid.uuid4(), "Chromecast", "Bench"), tries=1, timeout=10)
cast.wait(timeout=10)
mc = cast.media_controller
if cast.status and cast.status.app_id:
    done = __import__("threading").Event()
    mc.update_status(callback_function=lambda ok, data: done.set())
    done.wait(10)
print(json.dumps({"receiver": {"app_id": cast.status.app_id, "volume": cast.status.volume_level},
                  "media": {"playerState": mc.status.player_state, "currentTime": mc.status.current_time,
                            "playbackRate": mc.status.playback_rate}}))
cast.disconnect(timeout=5)
