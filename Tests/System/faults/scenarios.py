# SPDX-License-Identifier: GPL-3.0-or-later
"""One trial of each network fault, with the senders watching (test_faults.py runs each once,
figures.py runs each TRIALS times). Each returns the measured times and records them."""

import os
import re
import subprocess
import time

from faultlib import (MEDIA_TITLE, NOTICE_BOUND, REJOIN_BOUND, SLACK, DelayProxy, Faults, Receiver, Watch,
                      castctl, cast_media, is_state, record, session_id, status)
from window import BANNER_PREFIX, DEVICE_NAME, Failure, Window, click, find_all, find_button

def shot(name):
    """A screenshot of the (Xvfb) screen into $SHOTS_DIR, when set."""
    if os.environ.get("SHOTS_DIR"):
        subprocess.run(["import", "-window", "root", os.path.join(os.environ["SHOTS_DIR"], f"{name}.png")],
                       timeout=30, check=False)


SESSION_IN_STATE = re.compile(r"\(session ([^)]+)\)")


class Rig:
    """The simulator with media playing, `castctl watch --json` and (optionally) the window,
    all joined to the one session before the fault."""

    def __init__(self, window=True, env=None):
        self.faults = Faults()
        self.faults.clear()
        self.receiver = Receiver().start()
        self.watch = self.window = None
        try:
            cast_media(self.receiver.device)
            self.session = session_id(self.receiver.device)
            assert self.session, "no session after cast"
            self.watch = Watch(self.receiver.device, env=env)
            self.watch.wait("the session joined", is_state(f"connected to"), 0, 30)
            if window:
                self.window = Window(self.receiver.device, env=env)
                self.window.wait("the media title", lambda: self.window.shows(MEDIA_TITLE), 30)
                self.window.open_player()
                self.window.wait("a live transport", self.window.transport_sensitive, 20)
        except BaseException:
            self.close()
            raise

    def launches(self):
        return len(self.receiver.requests_in("LAUNCH"))

    def close(self):
        self.faults.clear()
        if self.watch:
            self.watch.stop()
        if self.window:
            self.window.close()
        self.receiver.stop()


def wait_both(rig, since, watch_pred, window_pred, timeout, what):
    """Waits until the watch has sent a matching event after `since` and the window shows
    what `window_pred` checks; returns (watch time, watch event, window time), each measured
    from when it first held. Polls the window while the watch's events are collected."""
    deadline = time.monotonic() + timeout
    watch_hit = window_t = None
    while time.monotonic() < deadline:
        if watch_hit is None:
            for t, e in list(rig.watch.events):
                if t >= since and watch_pred(e):
                    watch_hit = (t, e)
                    break
        if window_t is None and rig.window is not None:
            # Reading the window through AT-SPI takes a while (one D-Bus call per property):
            # the time kept is when the poll that saw it began, and the longest poll is
            # reported as the resolution of the window's times.
            began = time.monotonic()
            try:
                if window_pred():
                    window_t = began
            except Failure:
                raise
            except Exception:
                pass
            rig.poll_max = max(getattr(rig, "poll_max", 0.0), time.monotonic() - began)
        if watch_hit and (window_t or rig.window is None):
            return watch_hit[0], watch_hit[1], window_t
        time.sleep(0.05)
    raise AssertionError(
        f"timed out after {timeout:.0f} s waiting for {what}: watch {'ok' if watch_hit else 'not yet'} "
        f"(states, s after the wait began: {[(round(t - since, 2), e.get('state')) for t, e in rig.watch.events if e.get('event') == 'state'][-5:]}), window {'ok' if window_t else 'not yet'}"
        + (f" (labels {rig.window.labels()[:30]})" if rig.window else ""))


def banner_with_transport_off(rig):
    labels, transport = rig.window.snapshot()
    text = next((t for t in labels if t.startswith(BANNER_PREFIX)), None)
    if not text:
        return False
    if f"reconnecting to {DEVICE_NAME}" not in text:
        raise Failure(f"the banner does not name the device: {text!r}")
    # Both must hold together: a Play/Pause control shown, and none of them live. (The wait
    # fails with the last labels if that never happens.)
    return bool(transport) and not any(transport)


def rejoined_with_media(rig, title=MEDIA_TITLE):
    labels, transport = rig.window.snapshot()
    banner = any(t.startswith(BANNER_PREFIX) for t in labels)
    return not banner and any(title in t for t in labels) and any(transport)


def partition(rig, hold=30.0):
    """A silent partition (no FIN, no RST) for `hold` seconds."""
    before = rig.launches()
    rig.poll_max = 0.0
    t0 = time.monotonic()
    rig.faults.partition()
    tw, _, tg = wait_both(rig, t0, is_state("resuming"), lambda: banner_with_transport_off(rig),
                          NOTICE_BOUND * SLACK, "the senders to notice the partition")
    time.sleep(max(0.0, t0 + hold - time.monotonic()))
    # The link is back somewhere inside clear() (two nft calls): timing from before it makes
    # the rejoin time an overestimate by at most those calls, never an underestimate.
    t1 = time.monotonic()
    rig.faults.clear()
    tw2, e, tg2 = wait_both(rig, t1, is_state("connected to"), lambda: rejoined_with_media(rig),
                            REJOIN_BOUND * SLACK, "the senders to rejoin")
    m = SESSION_IN_STATE.search(e["state"])
    assert m and m.group(1) == rig.session, f"castctl watch joined another session: {e['state']!r}, wanted {rig.session}"
    assert session_id(rig.receiver.device) == rig.session, "the receiver's session changed"
    assert rig.launches() == before, f"the rejoin launched the app again ({rig.launches() - before} LAUNCH)"
    return record("partition", detect_watch=tw - t0, detect_window=tg - t0 if tg else None,
                  rejoin_watch=tw2 - t1, rejoin_window=tg2 - t1 if tg2 else None, window_poll=rig.poll_max)


def kill_restart(rig, title="After Restart"):
    """SIGKILL, then the receiver again on the same address with another sender casting there
    at once: the senders follow the device to what runs there now."""
    rig.poll_max = 0.0
    t0 = time.monotonic()
    rig.receiver.kill()
    tw, _, tg = wait_both(rig, t0, is_state("resuming"), lambda: banner_with_transport_off(rig),
                          NOTICE_BOUND * SLACK, "the senders to notice the receiver is gone")
    rig.receiver.start()
    t1 = time.monotonic()
    cast_media(rig.receiver.device, title=title)  # another sender, before ours are back
    new_session = session_id(rig.receiver.device)
    tw2, e, tg2 = wait_both(rig, t1, is_state("connected to"), lambda: rejoined_with_media(rig, title),
                            REJOIN_BOUND * SLACK, "the senders to follow the restarted device")
    m = SESSION_IN_STATE.search(e["state"])
    assert m and m.group(1) == new_session, f"castctl watch joined {e['state']!r}, the device runs {new_session}"
    assert session_id(rig.receiver.device) == new_session, "the senders replaced the session they should follow"
    rig.session = new_session
    return record("kill-restart", detect_watch=tw - t0, detect_window=tg - t0 if tg else None,
                  rejoin_watch=tw2 - t1, rejoin_window=tg2 - t1 if tg2 else None, window_poll=rig.poll_max)


def exactly_once(requests, what):
    """Each (source, requestId) once: a command retried behind the caller's back would show
    as a second message with the same id or as more messages than commands given."""
    ids = [(src, p.get("requestId")) for src, p in requests]
    assert len(set(ids)) == len(ids), f"{what}: a request was sent twice: {ids}"


def wait_log(rig, type_name, count, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = rig.receiver.requests_in(type_name)
        if len(got) >= count:
            return time.monotonic(), got
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what} "
                         f"({len(rig.receiver.requests_in(type_name))} of {count} {type_name} read)")


class LinkGivenUp(Exception):
    """A sender gave the link up during a loss trial: TCP's retransmission backoff held one
    direction's data past the heartbeat's limit (8 s without a message from the device)."""


def sender_links(rig):
    """How many sender connections the simulator has seen begin and end so far."""
    log = rig.receiver.log_text()
    return log.count("sender connected"), log.count("sender disconnected")


def link_was_given_up(rig, before, timeout=15):
    """Whether a sender's connection ended or a new one began since `before` (the loss is
    cleared by now: a connection given up under it shows here within a few seconds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        now = sender_links(rig)
        if now[0] > before[0] or now[1] > before[1]:
            return True
        time.sleep(0.2)
    return False


def loss(rig, percent=30, clicks=4, timeout=10):
    """Commands from the window (already connected) while 30 % of the packets each way are
    dropped: each reaches the receiver within the request timeout, exactly once.

    At 30 % each way, TCP sometimes loses one segment five or six times running; its timer
    doubles on each loss (0.2, 0.6, 1.4, 3.0, 6.2, 12.6 s), so the data behind it, PONGs
    included, can be held for longer than the heartbeat allows, and the sender gives the link
    up (1 trial in 76 here). A command written into that connection may never arrive: the
    client never resends one (it cannot know whether the device applied it). Such a trial
    raises LinkGivenUp after checking what must hold then: the window is back on the same
    session, live, and no request reached the receiver twice."""
    w = rig.window
    seeks0 = len(rig.receiver.requests_in("SEEK"))
    pauses0, plays0 = len(rig.receiver.requests_in("PAUSE")), len(rig.receiver.requests_in("PLAY"))
    links0 = sender_links(rig)
    times = []
    rig.faults.loss(percent)
    try:
        for i in range(clicks):
            t = time.monotonic()
            click(find_button(w, "Seek forward 30 seconds"))
            t2, _ = wait_log(rig, "SEEK", seeks0 + i + 1, timeout, f"seek {i + 1} to reach the receiver")
            times.append(t2 - t)
            # The window's answer: the seek bar follows (the button is live again, no error said).
            w.wait("the window to be ready again", lambda: not w.shows("failed") and w.transport_sensitive(), timeout)
        for name, kind, before in (("Pause", "PAUSE", pauses0), ("Play", "PLAY", plays0)):
            t = time.monotonic()
            click(find_button(w, name))
            t2, _ = wait_log(rig, kind, before + 1, timeout, f"{kind} to reach the receiver")
            times.append(t2 - t)
            other = "Play" if name == "Pause" else "Pause"
            w.wait(f"the window to offer {other}", lambda: find_all(w.app, other, "push button"), timeout)
    except (AssertionError, Failure) as e:
        rig.faults.clear()
        if not link_was_given_up(rig, links0):
            raise
        after_link_given_up(rig, seeks0, pauses0, plays0, clicks)
        record("loss-gave-up", commands_before=len(times))
        raise LinkGivenUp(f"a sender gave the link up under {percent} % loss after {len(times)} of "
                          f"{clicks + 2} commands ({e})") from e
    finally:
        rig.faults.clear()
    time.sleep(1)  # anything retried late would arrive by now
    seeks = rig.receiver.requests_in("SEEK")[seeks0:]
    assert len(seeks) == clicks, f"{clicks} seeks given, the receiver read {len(seeks)}"
    exactly_once(seeks, "SEEK")
    targets = [p.get("currentTime") for _, p in seeks]
    assert len(set(targets)) == len(targets), f"a seek target repeated: {targets}"
    assert len(rig.receiver.requests_in("PAUSE")) == pauses0 + 1, "PAUSE read more than once"
    assert len(rig.receiver.requests_in("PLAY")) == plays0 + 1, "PLAY read more than once"
    assert status(rig.receiver.device)["media"]["playerState"] == "PLAYING"
    return record("loss-30", command_median=sorted(times)[len(times) // 2], command_max=max(times),
                  commands=len(times), watch_reconnects=rig.watch.states().count("resuming"))


def after_link_given_up(rig, seeks0, pauses0, plays0, clicks, timeout=30):
    """With the loss gone: the window rejoins the session it had (the same session id on the
    device, media shown, transport live), nothing was applied twice, and the media plays again
    for the next trial."""
    w = rig.window
    w.wait("the window to rejoin after giving the link up", lambda: rejoined_with_media(rig), timeout)
    assert session_id(rig.receiver.device) == rig.session, "the window's rejoin replaced the session"
    time.sleep(1)  # anything resent late would arrive by now
    seeks = rig.receiver.requests_in("SEEK")[seeks0:]
    assert len(seeks) <= clicks, f"{clicks} seeks given at most, the receiver read {len(seeks)}"
    exactly_once(seeks, "SEEK")
    for kind, before in (("PAUSE", pauses0), ("PLAY", plays0)):
        assert len(rig.receiver.requests_in(kind)) <= before + 1, f"{kind} read more than once"
    if status(rig.receiver.device)["media"]["playerState"] != "PLAYING":
        castctl(rig.receiver.device, "play")
    w.wait("the window to offer Pause again", lambda: find_all(w.app, "Pause", "push button"), timeout)


def delay(rig, seconds=0.2, trial=0, timeout=10):
    """A 200 ms path each way (the proxy): castctl connects through it for every command and
    a watch follows through it; each command completes within the request timeout, once."""
    proxy = DelayProxy(rig.receiver.host, rig.receiver.port, delay=seconds)
    seeks = [200 + 10 * i + trial for i in range(3)]
    volumes = [round(0.15 + 0.1 * i + 0.01 * (trial % 5), 2) for i in range(3)]
    times = []
    try:
        watch = Watch(proxy.address)
        try:
            watch.wait("the session joined through the proxy", is_state("connected to"), 0, 30)
            seeks0 = len(rig.receiver.requests_in("SEEK"))
            vols0 = len(rig.receiver.requests_in("SET_VOLUME"))
            for v in seeks:
                t = time.monotonic()
                castctl(proxy.address, "seek", str(v), "--timeout", str(timeout), timeout=4 * timeout)
                times.append(time.monotonic() - t)
            for v in volumes:
                t = time.monotonic()
                castctl(proxy.address, "volume", f"{v:.2f}", "--timeout", str(timeout), timeout=4 * timeout)
                times.append(time.monotonic() - t)
            watch.wait("the delayed watch to see the last volume",
                       lambda e: e.get("event") == "receiver"
                       and abs(((e.get("receiver") or {}).get("volume") or {}).get("level", -1) - volumes[-1]) < 1e-6,
                       0, timeout)
        finally:
            watch.stop()
    finally:
        proxy.close()
    got_seeks = rig.receiver.requests_in("SEEK")[seeks0:]
    got_vols = rig.receiver.requests_in("SET_VOLUME")[vols0:]
    exactly_once(got_seeks, "SEEK")
    exactly_once(got_vols, "SET_VOLUME")
    assert [p.get("currentTime") for _, p in got_seeks] == seeks, f"seeks read: {got_seeks}"
    assert [round(p["volume"]["level"], 2) for _, p in got_vols] == volumes, f"volumes read: {got_vols}"
    return record("delay-200ms", command_median=sorted(times)[len(times) // 2], command_max=max(times),
                  commands=len(times))


def vanish(rig, give_up):
    """The device leaves for good (silent, then gone): after the backoff the window says so in
    one sentence and offers Try Again; no busy loop meanwhile."""
    # For comparison: the window connected, media playing (its clock ticks), over 5 s.
    c = rig.window.cpu_seconds()
    time.sleep(5)
    connected = rig.window.cpu_seconds() - c
    t0 = time.monotonic()
    rig.faults.partition()
    rig.receiver.kill()
    tw, _, tg = wait_both(rig, t0, is_state("resuming"), lambda: banner_with_transport_off(rig),
                          NOTICE_BOUND * SLACK, "the senders to notice the device is gone")
    # CPU time while reconnecting: the first 10 s (the banner's spinner turns), then 10 s more
    # (the sentence alone, attempts asleep between tries).
    start = max(tw, tg)
    cpu = {"watch": rig.watch.cpu_seconds(), "window": rig.window.cpu_seconds()}
    time.sleep(max(0.0, start + 10.5 - time.monotonic()))
    spinning = rig.window.cpu_seconds() - cpu["window"]
    cpu = {"watch": rig.watch.cpu_seconds(), "window": rig.window.cpu_seconds()}
    time.sleep(10)
    waiting = {k: getattr(rig, k).cpu_seconds() - v for k, v in cpu.items()}
    shot("faults-reconnecting")
    # The toast says the first sentence; the advice that follows is behind Details.
    sentence = "Fault TV did not answer."
    limit = give_up + 30  # the give-up point plus one full connect timeout and the slack
    tw2, e, tg2 = wait_both(rig, t0, is_state("disconnected"), lambda: rig.window.shows(sentence),
                            limit, "the senders to give up")
    assert rig.window.banner() is None, "the reconnecting banner stays after giving up"
    shot("faults-gave-up")
    details = [b for b in find_all(rig.window.app, role="push button") if b.name == "Details"]
    assert details, "the give-up sentence has no Details button"
    click(details[0])
    rig.window.wait("Try Again and the advice offered", lambda: [b for b in find_all(rig.window.app, role="push button")
                                                                 if b.name == "Try Again"]
                    and rig.window.shows("Check that it is on and on this network."), 10)
    cpu = {"watch": rig.watch.cpu_seconds(), "window": rig.window.cpu_seconds()}
    time.sleep(5)
    after = {k: getattr(rig, k).cpu_seconds() - v for k, v in cpu.items()}
    row = record("vanish", detect_watch=tw - t0, detect_window=tg - t0 if tg else None,
                 gave_up_watch=tw2 - t0, gave_up_window=tg2 - t0, cpu_window_connected_5s=connected,
                 cpu_window_first_10s=spinning, cpu_watch_next_10s=waiting["watch"],
                 cpu_window_next_10s=waiting["window"], cpu_watch_after_5s=after["watch"], cpu_window_after_5s=after["window"])
    # Near zero: a busy loop would burn whole seconds here (10 s of one core = 10 s).
    assert waiting["watch"] < 0.3, f"castctl watch used {waiting['watch']:.2f} s of CPU in 10 s while reconnecting"
    assert waiting["window"] < 0.3, f"castdeck used {waiting['window']:.2f} s of CPU in 10 s while reconnecting"
    assert after["watch"] < 0.15 and after["window"] < 0.15, f"CPU in 5 s after giving up: {after}"
    return row
