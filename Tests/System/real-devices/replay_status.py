# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Replays every capture of Tests/Fixtures/real-devices to `castctl status`.

A receiver capture is replayed alone (with one multizone capture sent unasked beside it, whose
MULTIZONE_STATUS must show as the group's members); a
media capture is replayed beside a receiver capture whose app lists the media namespace, since
a MEDIA_STATUS alone does not name its app. The replay receiver (`castctl receiver
--replay-*`, hidden options) changes nothing in a capture but its requestId."""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Fixtures", "real-devices")
CASTCTL = os.environ["CASTCTL"]
MEDIA_NS = "urn:x-cast:com.google.cast.media"
# Which receiver capture a media capture is replayed beside (same app where one exists).
BESIDE = {"media/speaker-spotify-paused.json": "receiver/speaker-spotify.json"}
DEFAULT_BESIDE = "receiver/nest-hub-dmr-web.json"


def load(name):
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        return json.load(f)


def percent(level):
    return f"{int(round(level * 100))} %"


def replay(receiver, media=None, extra=()):
    args = [CASTCTL, "receiver", "--port", "0", "--replay-receiver", os.path.join(ROOT, receiver)]
    if media:
        args += ["--replay-media", os.path.join(ROOT, media)]
    for ns, name in extra:
        args += ["--replay-message", f"{ns}={os.path.join(ROOT, name)}"]
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=log, text=True)
    line = proc.stdout.readline().strip()
    if not line.startswith("listening on "):
        proc.kill()
        log.seek(0)
        raise SystemExit(f"replay receiver did not start: {line!r} {log.read()[-2000:]!r}")
    return proc, line[len("listening on "):]


def status(device, *more):
    env = dict(os.environ, XDG_STATE_HOME=tempfile.mkdtemp())
    return subprocess.run([CASTCTL, "status", "--device", device, "--timeout", "10", *more],
                          capture_output=True, text=True, timeout=60, env=env)


def main():
    manifest = load("manifest.json")
    receivers = [e["file"] for e in manifest if e["file"].startswith("receiver/") and load(e["file"]).get("type") == "RECEIVER_STATUS"]
    # Other receiver-namespace captures (LAUNCH_ERROR) answer nothing castctl status asks:
    # they are sent unasked beside the first run, which must not be disturbed by them.
    others = [(e["namespace"], e["file"]) for e in manifest
              if e["file"].startswith("receiver/") and e["file"] not in receivers]
    media = [e["file"] for e in manifest if e["file"].startswith("media/")]
    multizone = [(e["namespace"], e["file"]) for e in manifest if e["file"].startswith("multizone/")]
    runs = [(r, None) for r in receivers] + [(BESIDE.get(m, DEFAULT_BESIDE), m) for m in media]
    failures, passed = [], 0
    for i, (rname, mname) in enumerate(runs):
        label = mname or rname
        extra = ([multizone[i % len(multizone)]] if multizone else []) + (others if i == 0 else [])
        rec = load(rname)["status"]
        apps = rec.get("applications") or []
        proc, device = replay(rname, mname, extra)
        try:
            text, js = status(device), status(device, "--json")
        finally:
            proc.kill()
            proc.wait()
        problems = []
        for run in (text, js):
            if run.returncode != 0:
                problems.append(f"exit {run.returncode}: {run.stderr.strip()}")
        if not problems:
            out, report = text.stdout, json.loads(js.stdout)
            vol = rec.get("volume", {}).get("level")
            if vol is not None and percent(vol) not in out:
                problems.append(f"volume {percent(vol)} not shown")
            if apps:
                app = apps[0]
                if (app.get("displayName") or app["appId"]) not in out:
                    problems.append(f"app {app.get('displayName')!r} not shown")
                if app.get("statusText", "").strip() and app["statusText"].strip() not in out:
                    problems.append(f"status text {app['statusText']!r} not shown")
                got = (report.get("receiver") or {}).get("applications") or []
                if not got or got[0].get("displayName") != app.get("displayName"):
                    problems.append("--json lacks the app")
            # The multizone capture sent beside: a MULTIZONE_STATUS lists its members (a lone
            # speaker's too), a DEVICE_* message alone makes no group.
            zone = load(extra[0][1]) if multizone else {}
            if zone.get("type") == "MULTIZONE_STATUS":
                names = [d["name"] for d in zone["status"]["devices"]]
                got = [m["name"] for m in (report.get("group") or {}).get("members", [])]
                if got != names:
                    problems.append(f"--json group members {got} are not the capture's {names}")
                if f"Members: {names[0]} · " not in out:
                    problems.append("the members are not shown")
            elif multizone and "group" in report:
                problems.append(f"a lone {zone.get('type')} made a group")
            if mname:
                statuses = load(mname).get("status")
                if statuses is None:  # a status sent flat in the message
                    statuses = [load(mname)]
                if statuses and apps:
                    s = statuses[0]
                    state = s["playerState"].upper()
                    if state not in out:
                        problems.append(f"player state {state} not shown")
                    if (report.get("media") or {}).get("playerState") != state:
                        problems.append("--json lacks the player state")
                    title = ((s.get("media") or {}).get("metadata") or {}).get("title")
                    if title and title not in out:
                        problems.append(f"title {title!r} not shown")
                elif apps and "No media loaded." not in out:
                    problems.append("an empty status is not 'No media loaded.'")
        if problems:
            failures.append((label, problems, text.stdout))
            print(f"FAIL: {label}: {'; '.join(problems)}")
        else:
            passed += 1
            print(f"ok: {label}")
    for label, problems, out in failures:
        print(f"--- {label}\n{out}", file=sys.stderr)
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
