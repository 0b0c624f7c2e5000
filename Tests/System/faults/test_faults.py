# SPDX-License-Identifier: GPL-3.0-or-later
"""Network faults between the senders' namespace and the simulator's (issue 17): a silent
30 s partition, SIGKILL + restart with another sender casting there, 30 % random loss, a
200 ms delay, and a device that vanishes for good. Each runs TRIALS times (default 1)."""
import os

import pytest

import scenarios

TRIALS = int(os.environ.get("TRIALS", "1"))
GIVE_UP = 30  # seconds; CASTDECK_RECONNECT_GIVE_UP for the vanish case (300 s by default)


def make_rig(window):
    r = scenarios.Rig(window=window)
    try:
        yield r
    finally:
        r.close()


@pytest.fixture
def rig():
    """The simulator, castctl watch and the window, joined to media that plays."""
    yield from make_rig(window=True)


@pytest.fixture
def light_rig():
    """The same without the window."""
    yield from make_rig(window=False)


def test_silent_partition_is_noticed_and_the_same_session_rejoined(rig):
    for _ in range(TRIALS):
        scenarios.partition(rig)


def test_killed_receiver_is_followed_to_what_runs_there_after_restart(rig):
    for i in range(TRIALS):
        scenarios.kill_restart(rig, title=f"After Restart {i}")


def test_commands_under_30_percent_loss_complete_exactly_once(rig):
    # A trial in which TCP held data past the heartbeat's limit (scenarios.loss says why) is
    # checked for what must hold then and run again; a few of those are chance, more are not.
    allowed = 2 + TRIALS // 10
    given_up = []
    done = 0
    while done < TRIALS:
        try:
            scenarios.loss(rig)
            done += 1
        except scenarios.LinkGivenUp as e:
            given_up.append(str(e))
            assert len(given_up) <= allowed, f"the link was given up in {len(given_up)} trials: {given_up}"


def test_commands_through_a_200ms_delay_complete_exactly_once(light_rig):
    for i in range(TRIALS):
        scenarios.delay(light_rig, trial=i)


def test_vanished_device_is_given_up_in_one_sentence_without_a_busy_loop():
    env = {"CASTDECK_RECONNECT_GIVE_UP": str(GIVE_UP), "CASTDECK_RECONNECT_EAGER_PERIOD": "6"}
    # Each trial waits for the whole backoff (about 75 s): VANISH_TRIALS caps them for figures.
    for _ in range(min(TRIALS, int(os.environ.get("VANISH_TRIALS", TRIALS)))):
        r = scenarios.Rig(window=True, env=env)
        try:
            scenarios.vanish(r, GIVE_UP)
        finally:
            r.close()
