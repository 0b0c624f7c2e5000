"""castdeck given a FILE on its command line and --device: it serves the file to a simulated
receiver that fetches media as a device does (castctl receiver --fetch-media), and shows the
device's verified mark (the receiver answers deviceauth with a test CA that castdeck trusts
through CASTDECK_EXTRA_CAST_ROOTS). Read and driven through AT-SPI; castctl checks the receiver."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from atspi_helpers import Failure, app_named, find, find_all, receiver_media, states, wait_for

CASTCTL = os.environ["CASTCTL"]
DEVICE = os.environ["FILE_DEVICE"]
TITLE = os.environ["FILE_TITLE"]
SHOTS = os.environ.get("SHOTS_DIR")
app = app_named("castdeck")
failed = 0


def case(name, fn):
    global failed
    try:
        fn()
        print(f"ok   {name}", flush=True)
    except Exception as e:
        failed += 1
        print(f"FAIL {name}: {e}", flush=True)


def file_plays():
    def playing():
        status = receiver_media(CASTCTL, DEVICE)
        media = status.get("media") or {}
        return (status.get("playerState") == "PLAYING" and media.get("contentId", "").startswith("http://127.0.0.1:")
                and (media.get("metadata") or {}).get("title") == TITLE) and media
    media = wait_for("the receiver to play the served file", playing, timeout=40)
    # The subtitles beside the file went along as a text track.
    if not any(t.get("type") == "TEXT" for t in media.get("tracks") or []):
        raise Failure(f"no text track in {media.get('tracks')}")
    # The window follows: its expanded controller shows the file's title.
    find(app, TITLE, "label", timeout=20)


def verified_mark():
    mark = find(app, "Verified", "label", timeout=20)
    if "CastDeck Simulated Device" not in (mark.description or ""):
        raise Failure(f"the mark does not say which certificate: {mark.description!r}")
    if find_all(app, "Unverified device", "label"):
        raise Failure("an Unverified device mark is shown beside Verified")
    if SHOTS:
        os.system(f"import -window root {SHOTS}/gui-file-verified.png")


def cast_a_file_button():
    button = find(app, "Cast a file", "push button")
    if "sensitive" not in states(button):
        raise Failure("Cast a file is not sensitive")


case("castdeck --device HOST:PORT FILE serves the file and the receiver plays it", file_plays)
case("a device that answers deviceauth with a trusted chain is marked Verified", verified_mark)
case("the header bar offers Cast a file", cast_a_file_button)
print(f"\n{3 - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
