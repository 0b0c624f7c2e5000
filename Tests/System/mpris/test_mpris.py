# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""MPRIS, casting in the background and the mini player, with real clients.

Runs inside run-mpris.sh (private session bus, Xvfb, AT-SPI). pychromecast is a foreign
sender that loads the media first; castdeck joins; playerctl, gdbus and dbus-monitor are the
MPRIS clients; AT-SPI reads and drives the windows."""
import os
import re
import subprocess
import sys
import time
import uuid

# pyatspi is Debian's (python3-pyatspi); pychromecast lives in the project's .venv, which runs
# this file. Both are for the same interpreter, so the system packages are appended.
sys.path.append("/usr/lib/python3/dist-packages")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "gui"))
sys.path.insert(0, os.path.join(HERE, ".."))

from pcc_serial import serialize  # noqa: E402
import pychromecast  # noqa: E402
from atspi_helpers import Failure, app_of_process, click, find, find_all, press_keys, states, wait_for  # noqa: E402
from raw_media import RawMediaHandler  # noqa: E402

CASTDECK = os.environ["CASTDECK"]
DEVICE = os.environ["DEVICE"]
ART_URL = os.environ["ART_URL"]
WORK = os.environ["WORK"]
SHOTS = os.environ.get("SHOTS_DIR")
BUS_NAME = "org.mpris.MediaPlayer2.CastDeck"
PATH = "/org/mpris/MediaPlayer2"
PLAYER = "org.mpris.MediaPlayer2.Player"
TITLE = "Test Film"
DURATION = 600


def run(*cmd, check=True, timeout=20):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if check and p.returncode != 0:
        raise Failure(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()}")
    return p.stdout.strip()


def playerctl(*args, check=True):
    return run("playerctl", "-p", "CastDeck", *args, check=check)


def get_property(name, interface=PLAYER):
    return run("gdbus", "call", "--session", "--dest", BUS_NAME, "--object-path", PATH, "--method",
               "org.freedesktop.DBus.Properties.Get", interface, name)


def bus_names():
    return run("gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
               "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.ListNames")


def shot(name):
    if SHOTS:
        os.system(f"import -window root {SHOTS}/{name}.png")


class Monitor:
    """dbus-monitor on the player's signals, read whole when asked."""

    def __init__(self, member):
        self.path = os.path.join(WORK, f"monitor-{member}-{uuid.uuid4().hex[:6]}.txt")
        self.out = open(self.path, "w")
        self.proc = subprocess.Popen(
            ["dbus-monitor", "--session", f"type='signal',path='{PATH}',member='{member}'"],
            stdout=self.out, stderr=subprocess.DEVNULL)
        time.sleep(0.5)

    def text(self):
        self.out.flush()
        with open(self.path) as f:
            return f.read()

    def messages(self):
        """The signal messages seen so far, each as its text."""
        parts = re.split(r"\n(?=signal )", self.text())
        return [p for p in parts if p.startswith("signal ")]

    def close(self):
        self.proc.terminate()
        self.proc.wait()
        self.out.close()


results = []


def case(name):
    def wrap(fn):
        t0 = time.time()
        try:
            fn()
            print(f"ok   {name} ({time.time() - t0:.1f}s)", flush=True)
        except Exception as e:
            import traceback
            print(f"FAIL {name}: {e}\n{traceback.format_exc(limit=-3)}", flush=True)
            time.sleep(1)
            if "app_proc" in globals() and app_proc.poll() is not None:
                print(f"castdeck had exited with status {app_proc.returncode}", flush=True)
            raise
        return fn
    return wrap


# --- a foreign sender loads the media first -------------------------------------------------
host, port = DEVICE.rsplit(":", 1)
cast = pychromecast.get_chromecast_from_host((host, int(port), uuid.uuid4(), "Chromecast", "Living Room TV"),
                                             tries=3, retry_wait=0.5, timeout=10)
serialize(cast)  # this script and pychromecast's thread both use the socket
raw = RawMediaHandler()
cast.register_handler(raw)
cast.wait(timeout=15)
mc = cast.media_controller
mc.play_media("http://127.0.0.1:9/film.mp4", "video/mp4", title=TITLE, thumb=ART_URL,
              stream_type="BUFFERED", media_info={"duration": DURATION})
mc.block_until_active(timeout=15)
raw.wait_for(lambda s: s.get("playerState") == "PLAYING", timeout=15)


def receiver_state():
    mc.update_status()
    return raw.wait_for(lambda s: True)["playerState"]


def wait_receiver(state):
    raw.wait_for(lambda s: s.get("playerState") == state, timeout=15)
    return True


logs = []


def start_castdeck(*args):
    log = open(os.path.join(WORK, f"castdeck{len(logs)}.log"), "w")
    logs.append(log)
    return subprocess.Popen([CASTDECK, *args], stdout=log, stderr=subprocess.STDOUT)


def app_of(proc, timeout=30):
    return app_of_process(proc.pid, timeout=timeout)


app_proc = start_castdeck("--device", DEVICE)
app = app_of(app_proc)


@case("castdeck owns org.mpris.MediaPlayer2.CastDeck and gdbus introspect shows both interfaces")
def introspect():
    wait_for("the bus name", lambda: BUS_NAME in bus_names())
    xml = run("gdbus", "introspect", "--session", "--dest", BUS_NAME, "--object-path", PATH)
    for needle in ["interface org.mpris.MediaPlayer2 {", "interface org.mpris.MediaPlayer2.Player {",
                   "Raise();", "Quit();", "PlayPause();", "Seek(in  x Offset);",
                   "SetPosition(in  o TrackId,", "OpenUri(in  s Uri);", "Seeked(x Position);",
                   "readonly s Identity = 'CastDeck';",
                   "readonly s DesktopEntry = 'io.github.castdeck.CastDeck';",
                   "readwrite d Rate", "readwrite d Volume", "readonly x Position",
                   "readonly as SupportedUriSchemes = ['http', 'https', 'file'];"]:
        if needle not in xml:
            raise Failure(f"introspection lacks {needle!r}:\n{xml}")
    if "CastDeck" not in run("playerctl", "-l").split():
        raise Failure("playerctl -l does not list CastDeck")


@case("playerctl reads title, length and artwork (a file that is an image) of the joined session")
def metadata():
    wait_for("the title", lambda: playerctl("metadata", "xesam:title", check=False) == TITLE)
    length = int(playerctl("metadata", "mpris:length"))
    if length != DURATION * 1_000_000:
        raise Failure(f"mpris:length {length}")
    art = wait_for("the artwork", lambda: playerctl("metadata", "mpris:artUrl", check=False))
    if not art.startswith("file:///"):
        raise Failure(f"artUrl {art!r}")
    from urllib.parse import unquote
    path = unquote(art[len("file://"):])
    if not os.path.isfile(path):
        raise Failure(f"artwork {path} does not exist")
    kind = run("identify", "-format", "%m %w %h", path)
    if not re.match(r"(PNG|JPEG|WEBP) \d+ \d+", kind):
        raise Failure(f"artwork is not an image: {kind}")
    trackid = playerctl("metadata", "mpris:trackid").strip("'")
    if not trackid.startswith("/io/github/castdeck/CastDeck/track/"):
        raise Failure(f"track id {trackid}")
    if playerctl("status") != "Playing":
        raise Failure(f"status {playerctl('status')}")
    pos = float(playerctl("position"))
    if not 0 <= pos <= DURATION:
        raise Failure(f"position {pos}")


@case("playerctl play-pause reaches the receiver; PropertiesChanged once per change, never Position")
def play_pause():
    changes = Monitor("PropertiesChanged")
    try:
        playerctl("play-pause")
        wait_receiver("PAUSED")
        wait_for("Paused", lambda: playerctl("status") == "Paused")
        playerctl("play-pause")
        wait_receiver("PLAYING")
        wait_for("Playing", lambda: playerctl("status") == "Playing")
        time.sleep(1)
        msgs = changes.messages()
        paused = [m for m in msgs if '"Paused"' in m]
        if len(paused) != 1:
            raise Failure(f"{len(paused)} PropertiesChanged saying Paused (want 1):\n" + "\n".join(msgs))
        if any('"Position"' in m for m in msgs):
            raise Failure("Position was sent in PropertiesChanged")
    finally:
        changes.close()


@case("pychromecast's pause shows in PlaybackStatus, and its play too")
def foreign_pause():
    mc.pause()
    wait_for("Paused from pychromecast", lambda: playerctl("status") == "Paused")
    mc.play()
    wait_for("Playing from pychromecast", lambda: playerctl("status") == "Playing")


@case("pychromecast's seek gives a Seeked signal near the new position")
def foreign_seek():
    seeked = Monitor("Seeked")
    try:
        mc.seek(300)
        def near():
            for value in re.findall(r"int64 (\d+)", seeked.text()):
                if abs(int(value) - 300_000_000) < 5_000_000:
                    return value
            return None
        wait_for("Seeked near 300 s", near)
        pos = float(playerctl("position"))
        if abs(pos - 300) > 10:
            raise Failure(f"position after the seek: {pos}")
    finally:
        seeked.close()


@case("SET_PLAYBACK_RATE from pychromecast shows as Rate; MinimumRate 0.5, MaximumRate 2")
def foreign_rate():
    sid = mc.status.media_session_id
    raw.send_message({"type": "SET_PLAYBACK_RATE", "mediaSessionId": sid, "playbackRate": 2})
    wait_for("Rate 2", lambda: get_property("Rate") == "(<2.0>,)")
    if get_property("MinimumRate") != "(<0.5>,)" or get_property("MaximumRate") != "(<2.0>,)":
        raise Failure(f"rates {get_property('MinimumRate')} {get_property('MaximumRate')}")
    # Setting Rate over MPRIS sends SET_PLAYBACK_RATE.
    run("gdbus", "call", "--session", "--dest", BUS_NAME, "--object-path", PATH, "--method",
        "org.freedesktop.DBus.Properties.Set", PLAYER, "Rate", "<1.0>")
    raw.wait_for(lambda s: s.get("playbackRate") == 1, timeout=15)
    wait_for("Rate 1", lambda: get_property("Rate") == "(<1.0>,)")


@case("playerctl loop and shuffle set the queue's repeat mode; another sender's shows in LoopStatus and Shuffle")
def loop_and_shuffle():
    wait_for("LoopStatus None", lambda: playerctl("loop") == "None" and playerctl("shuffle") == "Off")
    playerctl("loop", "Track")
    raw.wait_for(lambda s: s.get("repeatMode") == "REPEAT_SINGLE", timeout=15)
    wait_for("LoopStatus Track", lambda: playerctl("loop") == "Track")
    # Shuffling needs a queue: two more items after the one playing (which stays current).
    extra = [{"media": {"contentId": f"http://127.0.0.1:9/{n}.mp4", "contentType": "video/mp4", "streamType": "BUFFERED"}}
             for n in ("second", "third")]
    raw.send_message({"type": "QUEUE_INSERT", "mediaSessionId": mc.status.media_session_id, "items": extra})
    wait_for("a queue to shuffle", lambda: get_property("CanGoNext") == "(<true>,)")
    playerctl("shuffle", "On")
    raw.wait_for(lambda s: s.get("repeatMode") == "REPEAT_ALL_AND_SHUFFLE", timeout=15)
    wait_for("Shuffle On, LoopStatus Playlist", lambda: playerctl("shuffle") == "On" and playerctl("loop") == "Playlist")
    playerctl("shuffle", "Off")
    raw.wait_for(lambda s: s.get("repeatMode") == "REPEAT_ALL", timeout=15)
    wait_for("Shuffle Off", lambda: playerctl("shuffle") == "Off" and playerctl("loop") == "Playlist")
    # Another sender turns repeat off: MPRIS follows.
    raw.send_message({"type": "QUEUE_UPDATE", "mediaSessionId": mc.status.media_session_id, "repeatMode": "REPEAT_OFF"})
    wait_for("LoopStatus None again", lambda: playerctl("loop") == "None")


@case("a LIVE stream from pychromecast: no mpris:length, Live in xesam:comment, CanSeek inside its window")
def live_stream():
    mc.play_media("https://tv.example/news/live.m3u8", "application/x-mpegURL", title="News 24", stream_type="LIVE")
    wait_for("the live title", lambda: playerctl("metadata", "xesam:title", check=False) == "News 24")
    wait_for("Live in xesam:comment", lambda: playerctl("metadata", "xesam:comment", check=False) == "Live")
    if playerctl("metadata", "mpris:length", check=False):
        raise Failure("a live stream has an mpris:length")
    wait_for("CanSeek in the window", lambda: get_property("CanSeek") == "(<true>,)")
    # 30 s back from the live edge (120 on the simulator), through MPRIS.
    playerctl("position", "30-")
    raw.wait_for(lambda s: 85 < (s.get("currentTime") or 0) < 95, timeout=15)
    # The film again, for the cases after this one.
    mc.play_media("http://127.0.0.1:9/film.mp4", "video/mp4", title=TITLE, thumb=ART_URL,
                  stream_type="BUFFERED", media_info={"duration": DURATION})
    wait_for("the film's length", lambda: playerctl("metadata", "mpris:length", check=False) == str(DURATION * 1_000_000))


@case("the mini player opens from the expanded controller; its Pause pauses the receiver")
def mini_player():
    click(find(app, "Open mini player", "push button"))
    mini = wait_for("the mini player window",
                    lambda: [w for w in find_all(app, "CastDeck mini player", "frame")])[0]
    # The main window is hidden while the mini player shows.
    wait_for("the main window to hide", lambda: not find_all(app, "Now Playing", "frame")
             and not [w for w in find_all(app, role="frame") if w.name != "CastDeck mini player"])
    find(mini, TITLE, "label")
    find(mini, "Return to full controller", "push button")
    find(mini, "Stop casting", "push button")
    find(mini, "Progress")
    shot("mini-player")
    click(find(mini, "Pause", "push button"))
    wait_receiver("PAUSED")
    wait_for("Paused over MPRIS", lambda: playerctl("status") == "Paused")
    # Another sender's play shows in the mini player.
    mc.play()
    find(mini, "Pause", "push button")


def xdotool(*args):
    return run("xdotool", *args)


@case("Space in the mini player pauses and plays; Escape returns to the full controller")
def mini_keys():
    find(app, "CastDeck mini player", "frame")
    wait_receiver("PLAYING")
    # Keys go to the focused window (Xvfb has no window manager: focus it by hand).
    xdotool("search", "--sync", "--name", "^CastDeck mini player$", "windowfocus", "--sync")
    xdotool("key", "space")
    wait_for("PAUSED from Space", lambda: receiver_state() == "PAUSED")
    xdotool("key", "space")
    wait_for("PLAYING from Space", lambda: receiver_state() in ("PLAYING", "BUFFERING"))
    xdotool("key", "Escape")
    wait_for("the mini player to close", lambda: not find_all(app, "CastDeck mini player", "frame"))
    find(app, "Open mini player", "push button")


@case("Return to full controller shows the main window on the expanded controller")
def return_full():
    click(find(app, "Open mini player", "push button"))
    mini = find(app, "CastDeck mini player", "frame")
    click(find(mini, "Return to full controller", "push button"))
    wait_for("the mini player to close", lambda: not find_all(app, "CastDeck mini player", "frame"))
    find(app, "Open mini player", "push button")
    find(app, "Seek forward 30 seconds", "push button")


@case("closing every window keeps the bus name; playerctl still controls the receiver")
def background():
    click(find(app, "Open mini player", "push button"))
    mini = find(app, "CastDeck mini player", "frame")
    click(find(mini, "Close mini player", "push button"))
    wait_for("no window shown", lambda: not find_all(app, role="frame"))
    time.sleep(3)  # past the grace period in which a finished session would quit
    if app_proc.poll() is not None:
        raise Failure(f"castdeck exited ({app_proc.returncode}) with the media still cast")
    if BUS_NAME not in bus_names():
        raise Failure("the MPRIS name left the bus")
    playerctl("pause")
    wait_receiver("PAUSED")
    playerctl("play")
    wait_receiver("PLAYING")


@case("running castdeck again shows the window, on the same media")
def relaunch():
    second = start_castdeck()
    second.wait(timeout=30)
    if second.returncode != 0:
        raise Failure(f"the second castdeck exited {second.returncode}")
    wait_for("a window", lambda: find_all(app, role="frame"))
    find(app, TITLE, "label")
    find(app, "Open mini player", "push button")
    shot("relaunched")


@case("closing the main window while casting opens the mini player (the default), not remembered for next time")
def close_main_window_opens_mini_player():
    frame = find_all(app, role="frame")[0]
    click(find(frame, "Close", "push button"))
    mini = find(app, "CastDeck mini player", "frame")
    wait_for("the main window hidden",
             lambda: not [w for w in find_all(app, role="frame") if w.name != "CastDeck mini player"])
    find(mini, TITLE, "label")
    if app_proc.poll() is not None or BUS_NAME not in bus_names():
        raise Failure("castdeck did not stay on the bus")
    click(find(mini, "Return to full controller", "push button"))
    wait_for("the mini player to close", lambda: not find_all(app, "CastDeck mini player", "frame"))
    find(app, "Open mini player", "push button")


@case("Preferences: with the mini player switch off, closing the window hides it; castdeck stays on the bus")
def close_main_window():
    press_keys("CastDeck", "ctrl+comma", prefix=True)
    prefs = wait_for("Preferences", lambda: [f for f in find_all(app) if f.name == "Preferences"
                                             and f.getRoleName() in ("frame", "dialog")], timeout=20)[0]
    switch = wait_for("the switch", lambda: [n for n in find_all(prefs, "Show the mini player when the window closes while casting")
                                             if n.getRoleName() in ("switch", "toggle button", "check box")])[0]
    on = lambda: bool({"checked", "pressed"} & states(switch))
    if not on():
        raise Failure("the mini player switch is off by default")
    click(switch)
    wait_for("the switch off", lambda: not on())
    press_keys("Preferences", "Escape")
    wait_for("Preferences closed", lambda: not [f for f in find_all(app) if f.name == "Preferences"
                                                and f.getRoleName() in ("frame", "dialog")])
    frame = find_all(app, role="frame")[0]
    click(find(frame, "Close", "push button"))
    wait_for("no window shown", lambda: not find_all(app, role="frame"))
    time.sleep(3)
    if app_proc.poll() is not None or BUS_NAME not in bus_names():
        raise Failure("castdeck did not stay in the background")
    if playerctl("metadata", "xesam:title") != TITLE:
        raise Failure("MPRIS lost the media")
    # Raise (the Shell's media card) brings the window back.
    run("gdbus", "call", "--session", "--dest", BUS_NAME, "--object-path", PATH, "--method",
        "org.mpris.MediaPlayer2.Raise")
    wait_for("the window", lambda: find_all(app, role="frame"))
    find(app, "Open mini player", "push button")


@case("Ctrl+Q in the mini player while casting asks; Stop Casting stops the media and quits")
def quit_stop_casting():
    click(find(app, "Open mini player", "push button"))
    find(app, "CastDeck mini player", "frame")
    xdotool("search", "--sync", "--name", "^CastDeck mini player$", "windowfocus", "--sync")
    xdotool("key", "ctrl+q")
    # A device added by address is named by its address in the window, and so here.
    dialog = find(app, f"Stop casting to {DEVICE}?", "dialog")

    def response(label):
        # The dialog's own response buttons, named by their label (the mini player behind it
        # has a Stop Casting button too).
        return wait_for(label, lambda: [b for b in find_all(dialog, role="push button") if b.name == label])[0]
    # The media comes from another server, not this computer: it can be left playing.
    response("Keep Playing")
    if [b for b in find_all(dialog, role="push button") if (b.name or "").startswith("Keep Running")]:
        raise Failure("Keep Running in the Background is offered for media that does not come from this computer")
    shot("quit-dialog")
    click(response("Stop Casting"))
    app_proc.wait(timeout=20)
    if app_proc.returncode != 0:
        raise Failure(f"castdeck exited {app_proc.returncode}")
    wait_for("the name to leave the bus", lambda: BUS_NAME not in bus_names())
    wait_for("the receiver to stop", lambda: receiver_state() == "IDLE")


@case("the next session on the device starts in the mini player; closing it casts on in the background")
def remembered_then_session_end_quits():
    global app, app_proc
    # The media was stopped: pychromecast casts it again.
    mc.play_media("http://127.0.0.1:9/film.mp4", "video/mp4", title=TITLE, thumb=ART_URL,
                  stream_type="BUFFERED", media_info={"duration": DURATION})
    mc.block_until_active(timeout=15)
    wait_for("the receiver playing again", lambda: receiver_state() == "PLAYING")
    app_proc = start_castdeck("--device", DEVICE)
    app = app_of(app_proc)
    mini = find(app, "CastDeck mini player", "frame", timeout=30)
    find(mini, TITLE, "label")
    wait_for("the bus name", lambda: BUS_NAME in bus_names())
    click(find(mini, "Close mini player", "push button"))
    wait_for("no window shown", lambda: not find_all(app, role="frame"))
    time.sleep(3)
    if app_proc.poll() is not None or BUS_NAME not in bus_names():
        raise Failure("castdeck did not stay in the background")
    # The device ends the session (pychromecast stops the receiver app): CastDeck leaves the
    # bus and quits, as no window is shown.
    cast.quit_app()
    app_proc.wait(timeout=30)
    if app_proc.returncode != 0:
        raise Failure(f"castdeck exited {app_proc.returncode}")
    wait_for("the name to leave the bus", lambda: BUS_NAME not in bus_names())



cast.disconnect(timeout=5)
print("mpris: all passed")
