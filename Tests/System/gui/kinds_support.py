# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""One device of a kind (issue 30) with the real window on it, for test_kinds.py and
scripts/screenshots-kinds.sh: `castctl receiver --kind KIND --clock manual` at a loopback
address of its own on the standard ports (so the window learns its name from the setup API),
a castdeck given that address with settings of its own (the window's size, the language), and
the simulator's test hooks (the receiver clock, SWITCH_INPUT, LAUNCH, REBOOT) through castraw."""
import gettext
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from atspi_helpers import app_named, castctl, find_all, plain, process_running, wait_for  # noqa: E402
from castraw import SIMULATOR_NS, RawSender  # noqa: E402

CASTCTL = os.environ["CASTCTL"]
CASTDECK = os.environ["CASTDECK"]
LOCALE_DIR = os.environ.get("LOCALE_DIR", ".build/castdeck-data/locale")


def translator(lang):
    """The app's own translation of a message (what scripts/build-data.sh compiled), so widgets
    are found by the names shown in any language of po/LINGUAS."""
    t = gettext.translation("castdeck", LOCALE_DIR, languages=[lang], fallback=True)
    return t.gettext


class Scene:
    """A receiver of `kind` named `name` and a castdeck connected to it; use with `with`."""

    def __init__(self, kind, name, *receiver_args, lang="en", size=None, files=()):
        self.kind, self.name, self.args, self.lang, self.size, self.files = kind, name, receiver_args, lang, size, files
        self.host = f"127.{random.randint(20, 220)}.{random.randint(1, 250)}.{random.randint(2, 250)}"
        self.device = self.host  # port 8009
        self.dir = tempfile.mkdtemp(prefix=f"kinds-{kind}-")
        self.T = translator(lang)
        self.procs = []

    def __enter__(self):
        self.log = open(os.path.join(self.dir, "receiver.log"), "w")
        self.receiver = subprocess.Popen(
            [CASTCTL, "receiver", "--host", self.host, "--name", self.name, "--kind", self.kind, "--clock", "manual", *self.args],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        self.procs.append(self.receiver)
        try:
            line = self.receiver.stdout.readline()
            if not line.startswith("listening on "):
                raise AssertionError(f"the {self.kind} receiver did not start: {line!r}")
            self.start_window()
        except BaseException as e:
            # Not entered, so not exited either: end what was started here.
            self.__exit__(type(e), e, e.__traceback__)
            raise
        return self

    def start_window(self):
        config = os.path.join(self.dir, "config")
        os.makedirs(os.path.join(config, "glib-2.0", "settings"), exist_ok=True)
        if self.size:
            w, h = self.size.split("x")
            with open(os.path.join(config, "glib-2.0", "settings", "keyfile"), "w") as f:
                f.write(f"[io/github/castdeck/CastDeck]\nwindow-width={w}\nwindow-height={h}\n")
        env = dict(os.environ, XDG_CONFIG_HOME=config, XDG_STATE_HOME=os.path.join(self.dir, "state"),
                   GSETTINGS_BACKEND="keyfile", CASTDECK_NO_DISCOVERY="1", CASTDECK_EXTRA_CAST_ROOTS="",
                   LANGUAGE=self.lang, LC_ALL="C.UTF-8")
        self.app_log = os.path.join(self.dir, "castdeck.log")
        self.window = subprocess.Popen([CASTDECK, "--device", self.device, *self.files], env=env,
                                       stdout=open(self.app_log, "w"), stderr=subprocess.STDOUT)
        self.procs.append(self.window)
        self.app = app_named("castdeck", timeout=30)
        # Connected: the devices page says so, or the player page when a file given is cast at once.
        said = {plain(self.T(m).replace("{0}", self.name)) for m in ("Connected to {0}", "Casting to {0}")}
        wait_for("the window connected", lambda: [n for n in find_all(self.app) if plain(n.name) in said], timeout=30)

    def __exit__(self, kind, value, tb):
        if value is not None and hasattr(self, "app_log"):
            with open(self.app_log) as f:
                print("--- castdeck log\n" + "".join(f.readlines()[-40:]), flush=True)
        for p in reversed(self.procs):
            p.terminate()
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self.log.close()
        # The next scene's castdeck must not find this one on the accessibility bus.
        if hasattr(self, "window"):
            wait_for("castdeck to leave", lambda: not process_running(self.window.pid))
        time.sleep(0.5)
        shutil.rmtree(self.dir, ignore_errors=True)
        return False

    def castctl(self, *args):
        return castctl(CASTCTL, self.device, *args)

    def hook(self, payload):
        """A test hook on the simulator namespace; answered with the receiver clock."""
        raw = RawSender(self.host, 8009, source="sender-kinds-test")
        try:
            if payload.get("type") == "REBOOT":
                raw.send(SIMULATOR_NS, "receiver-0", payload)  # the socket drops, nothing answers
                return None
            return raw.request(SIMULATOR_NS, "receiver-0", payload)
        finally:
            raw.close()

    def advance(self, seconds):
        return self.hook({"type": "ADVANCE_CLOCK", "seconds": seconds})

    def shot(self, out, name):
        """The whole screen, as <name>-<size>-<lang>.png in `out`."""
        time.sleep(1)
        tag = f"{self.size}-{self.lang}" if self.size else self.lang
        subprocess.run(["import", "-window", "root", os.path.join(out, f"{name}-{tag}.png")], check=True, timeout=30)
