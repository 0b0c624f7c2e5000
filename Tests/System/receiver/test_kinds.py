# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Device kinds (issue 30) as pychromecast 14.0.10 sees them: each `castctl receiver --kind`
reports its real device's volume control, idle screen and input; a speaker answers a LAUNCH of
the Default Media Receiver with its audio-only twin; a TV runs YouTube as an Android TV app
with YouTube's restricted media commands; ambient mode and switching a TV's input end the app."""
import os
import signal
import subprocess
import uuid
from contextlib import contextmanager

import pytest

from conftest import Receiver, connect, wait_until


@contextmanager
def kind_receiver(*args):
    device_uuid = uuid.uuid4()
    proc = subprocess.Popen(
        [os.environ["CASTCTL"], "receiver", "--port", "0", "--clock", "manual", "--name", "Test TV", "--uuid", str(device_uuid), *args],
        stdout=subprocess.PIPE, stderr=open(os.environ.get("CASTDECK_RECEIVER_LOG", os.devnull), "ab"), text=True)
    try:
        line = proc.stdout.readline().strip()
        assert line.startswith("listening on "), line
        host, port = line[len("listening on "):].rsplit(":", 1)
        cast, raw, control = connect(Receiver(proc, host, int(port), device_uuid))
        try:
            yield cast, raw, control
        finally:
            cast.disconnect(timeout=5)
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0


def hook(control, message):
    import threading
    done = threading.Event()
    control.send_message(message, callback_function=lambda ok, data: done.set())
    assert done.wait(10), f"{message['type']} was not answered"


@pytest.mark.parametrize("kind,control_type,idle_app,reports_input", [
    ("chromecast", "attenuation", "Backdrop", True), ("google-tv", "fixed", None, False), ("nest-hub", "master", "Backdrop", False),
    ("speaker", "master", None, False), ("projector", "fixed", None, True), ("tv", "master", None, True)])
def test_each_kind_reports_its_device(kind, control_type, idle_app, reports_input):
    with kind_receiver("--kind", kind) as (cast, _raw, _control):
        status = cast.status
        assert status.volume_control_type == control_type
        assert status.display_name == idle_app
        assert (status.is_active_input is not None) == reports_input
        assert status.is_stand_by is False if reports_input else status.is_stand_by is None


def test_a_speaker_runs_the_audio_only_receiver():
    with kind_receiver("--kind", "speaker") as (cast, _raw, _control):
        cast.start_app("CC1AD845")
        wait_until(lambda: cast.status.app_id == "705D30C6", what="the audio-only receiver")
        assert cast.status.display_name == "Default Media Receiver"


def test_youtube_on_a_tv_is_an_android_tv_app_with_its_own_commands():
    with kind_receiver("--kind", "tv", "--foreign-app", "youtube") as (cast, raw, _control):
        cast.start_app("233637DE")
        wait_until(lambda: cast.status.app_id == "2C6A6E3D", what="YouTube's Android TV app")
        mc = cast.media_controller
        mc.play_media("yt:abc", "video/mp4", title="A Video")
        mc.block_until_active(timeout=10)
        wait_until(lambda: mc.status.player_state == "PLAYING", what="playing")
        assert mc.status.supported_media_commands == 3  # pause and seek only


def test_ambient_mode_and_a_tv_switching_input_end_the_app():
    with kind_receiver("--kind", "tv", "--ambient-after", "1200") as (cast, _raw, control):
        mc = cast.media_controller
        mc.play_media("https://media.example/film.mp4", "video/mp4", title="Film", media_info={"duration": 3600})
        mc.block_until_active(timeout=10)
        wait_until(lambda: mc.status.player_state == "PLAYING", what="playing")
        mc.pause()
        wait_until(lambda: mc.status.player_state == "PAUSED", what="paused")
        control.advance(1199)
        assert cast.status.app_id == "CC1AD845", "not yet"
        try:
            control.advance(2)
        except AssertionError:
            # The advance closes the app: pychromecast may take the app's CLOSE before the hook's
            # answer and drop that answer while it resets its connection. What counts is below.
            pass
        wait_until(lambda: cast.status.app_id is None, what="ambient mode closing the app")
        # pychromecast reconnects after the app it followed closed; a launch before then is refused.
        wait_until(lambda: cast.socket_client.is_connected, what="pychromecast connected again")
        cast.start_app("CC1AD845")
        wait_until(lambda: cast.status.app_id == "CC1AD845", what="launched again")
        hook(control, {"type": "SWITCH_INPUT", "active": False})
        wait_until(lambda: cast.status.is_active_input is False and cast.status.app_id is None, what="the TV on another input")
