# SPDX-License-Identifier: GPL-3.0-or-later
"""The castdeck window as a sender in the fault tests, read through AT-SPI with the GUI suite's
helpers (Debian's pyatspi, found on the system path after the venv's own packages)."""

import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.append("/usr/lib/python3/dist-packages")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "gui"))
import pyatspi  # noqa: E402
from atspi_helpers import Failure, click, find, find_all, states, walk  # noqa: E402

from faultlib import CASTDECK, DEVICE_NAME, WORK, cpu_seconds, stop_process  # noqa: E402

BANNER_PREFIX = "Connection lost"


class Window:
    """castdeck --device ADDRESS, the only castdeck on this session bus."""

    def __init__(self, device, env=None):
        for attempt in range(2):
            self.log = WORK / f"castdeck-{time.time_ns()}.log"
            self.proc = subprocess.Popen([CASTDECK, "--device", device], stdout=open(self.log, "wb"),
                                         stderr=subprocess.STDOUT, env={**os.environ, **(env or {})})
            # Another GUI run on this machine can briefly take the display's socket files
            # (they live in the shared /tmp): that is the test bed, not castdeck; try once more.
            time.sleep(1)
            if attempt == 0 and self.proc.poll() is not None and "cannot open display" in self.log_tail():
                time.sleep(2)
                continue
            break
        try:
            self.app = self._find_app(timeout=45)
        except Failure as e:
            raise Failure(f"{e}; castdeck {'exited with ' + str(self.proc.returncode) if self.proc.poll() is not None else 'runs'}"
                          f"; its log: {self.log_tail()!r}") from None

    def _find_app(self, timeout):
        """The castdeck on the bus whose process is ours. Each window of a run is a new process
        that this one Python process looks for; an application of an earlier window that is
        still listed is told apart by its process id. (Clearing the desktop's cache here
        crashed libatspi.)"""
        deadline = time.monotonic() + timeout
        seen = []
        while time.monotonic() < deadline:
            desktop = pyatspi.Registry.getDesktop(0)
            seen = []
            for i in range(desktop.childCount):
                try:
                    a = desktop.getChildAtIndex(i)
                    name = a.name
                except Exception:
                    continue
                try:
                    pid = a.get_process_id()
                except Exception:
                    pid = None
                seen.append((name, pid))
                if name == "castdeck" and pid in (None, self.proc.pid):
                    return a
            if self.proc.poll() is not None:
                break
            time.sleep(0.3)
        raise Failure(f"castdeck (pid {self.proc.pid}) is not on the accessibility bus; seen: {seen}")

    def snapshot(self):
        """One walk of the visible tree: (label texts, {Play/Pause button: sensitive})."""
        labels, transport = [], []
        for n in walk(self.app):
            try:
                role = n.getRoleName()
                if role not in ("label", "push button"):
                    continue
                st = states(n)
                if "visible" not in st:
                    continue
                if role == "label":
                    labels.append(n.name or "")
                elif (n.name or "") in ("Play", "Pause"):
                    transport.append("sensitive" in st)
            except Exception:
                continue
        return labels, transport

    def labels(self):
        return [n.name or "" for n in find_all(self.app, role="label")]

    def banner(self):
        """The reconnecting banner's text, or None while it is hidden."""
        return next((t for t in self.labels() if t.startswith(BANNER_PREFIX)), None)

    def shows(self, text):
        return any(text in t for t in self.labels())

    def transport(self):
        """The visible Play/Pause buttons (mini player and expanded controller)."""
        return find_all(self.app, "Pause", "push button") + find_all(self.app, "Play", "push button")

    def transport_sensitive(self):
        return [b for b in self.transport() if "sensitive" in states(b)]

    def open_player(self):
        for opener in find_all(self.app, "Open expanded controller", "push button"):
            click(opener)

    def wait(self, what, predicate, timeout, interval=0.1):
        """Polls `predicate` until true; returns the monotonic time it first held."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            try:
                last = predicate()
                if last:
                    return time.monotonic()
            except Failure:
                raise
            except Exception as e:  # widgets rebuilt while we looked
                last = e
            time.sleep(interval)
        raise Failure(f"window: timed out after {timeout:.0f} s waiting for {what} (last: {last!r}); "
                      f"labels: {self.labels()[:40]}")

    def cpu_seconds(self):
        return cpu_seconds(self.proc.pid)

    def log_tail(self, n=40):
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""

    def close(self):
        stop_process(self.proc)
        # The next window must not find this one on the accessibility bus.
        time.sleep(0.5)


def find_button(window, name, timeout=10):
    return find(window.app, name, "push button", timeout=timeout)


__all__ = ["Window", "Failure", "find_all", "find_button", "click", "DEVICE_NAME"]
