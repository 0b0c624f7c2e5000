#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
"""Writes or checks the Flatpak manifest io.github.castdeck.CastDeck.json.

  manifest.py           write the manifest (the Swift packages from Package.resolved)
  manifest.py --check   check the committed manifest: valid against flatpak-builder's JSON
                        schema (build-aux/flatpak/flatpak-manifest.schema.json), every local
                        path it names exists, its Swift packages are exactly Package.resolved's
                        pins (when a Package.resolved is there), and it says what it should

Flathub builds without network, so every Swift package the build resolves is a source of its
own, checked out under deps/ and named to SwiftPM as a mirror of its URL. The manifest cannot
be built here (no Flathub runtimes on this machine); README.md, "Flatpak", says what is checked.
"""
import json, os, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MANIFEST = os.path.join(ROOT, "io.github.castdeck.CastDeck.json")
SCHEMA = os.path.join(ROOT, "build-aux", "flatpak", "flatpak-manifest.schema.json")

# What the sandbox may do, and why. Nothing else: no home folder (files come through the file
# chooser portal), no PulseAudio, no devices beyond the GPU.
FINISH_ARGS = [
    "--share=network",             # Cast devices, the media server the device fetches from
    "--share=ipc",                 # X11 shared memory
    "--socket=wayland",
    "--socket=fallback-x11",
    "--device=dri",                # GTK's GPU renderer, VA-API encoders
    "--own-name=org.mpris.MediaPlayer2.CastDeck",  # desktop media controls (MPRIS)
    "--system-talk-name=org.freedesktop.Avahi",    # finding devices (mDNS through avahi-daemon)
]
# The file chooser and ScreenCast portals need no permission: xdg-desktop-portal is always
# reachable from the sandbox.


def pins():
    path = os.path.join(ROOT, "Package.resolved")
    if not os.path.exists(path):
        return None
    return sorted(((p["identity"], p["location"], p["state"]["version"]) for p in json.load(open(path))["pins"]))


def swift_sources(packages):
    return [{"type": "git", "url": url, "tag": version, "disable-shallow-clone": True, "dest": f"deps/{name}"}
            for name, url, version in packages]


def manifest(packages):
    mirrors = [f'swift package config set-mirror --original "{url}" --mirror "$PWD/deps/{name}"'
               for name, url, _ in packages]
    return {
        "id": "io.github.castdeck.CastDeck",
        "runtime": "org.gnome.Platform",
        "runtime-version": "48",
        "sdk": "org.gnome.Sdk",
        "sdk-extensions": ["org.freedesktop.Sdk.Extension.swift6"],
        "command": "castdeck",
        "finish-args": FINISH_ARGS,
        "build-options": {
            "append-path": "/usr/lib/sdk/swift6/bin",
            "prepend-ld-library-path": "/usr/lib/sdk/swift6/lib",
        },
        "cleanup": ["/include", "/lib/pkgconfig", "/share/man", "/share/doc", "*.a", "*.la"],
        "modules": [
            {
                # Local files are probed with ffprobe and converted by ffmpeg with x264 when the
                # device cannot play them as they are; the runtime has neither program.
                "name": "x264",
                "buildsystem": "autotools",
                "config-opts": ["--enable-shared", "--disable-cli"],
                "sources": [{"type": "git", "url": "https://code.videolan.org/videolan/x264.git", "branch": "stable"}],
            },
            {
                "name": "ffmpeg",
                "buildsystem": "autotools",
                "config-opts": ["--enable-gpl", "--enable-libx264", "--enable-vaapi", "--enable-shared",
                                "--disable-static", "--disable-doc", "--disable-ffplay", "--disable-debug"],
                "sources": [{"type": "git", "url": "https://git.ffmpeg.org/ffmpeg.git", "tag": "n7.1.1"}],
            },
            {
                "name": "castdeck",
                "buildsystem": "simple",
                "build-commands": mirrors + [
                    "meson setup _build --prefix=/app -Dswiftpm_configuration=release -Dswiftpm_scratch=$PWD/.build",
                    "meson install -C _build",
                ],
                "sources": [{"type": "dir", "path": "."}] + swift_sources(packages),
            },
        ],
    }


def check():
    import jsonschema
    problems = []
    data = json.load(open(MANIFEST))
    try:
        jsonschema.validate(data, json.load(open(SCHEMA)))
    except jsonschema.ValidationError as e:
        problems.append(f"not valid against flatpak-builder's schema: {e.message} at {list(e.absolute_path)}")
    for module in data["modules"]:
        for source in module.get("sources", []):
            if source.get("type") in ("dir", "file", "patch") and not os.path.exists(os.path.join(ROOT, source["path"])):
                problems.append(f"{module['name']}: {source['path']} does not exist")
    if data["finish-args"] != FINISH_ARGS:
        problems.append("finish-args differ from build-aux/flatpak/manifest.py")
    if any(a.startswith(("--filesystem=home", "--filesystem=host")) for a in data["finish-args"]):
        problems.append("the manifest grants home or host file access")
    if data["command"] != "castdeck":
        problems.append(f"the manifest runs {data['command']}, not castdeck")
    if not os.path.exists(os.path.join(ROOT, "data", data["id"] + ".desktop.in")):
        problems.append(f"the app id {data['id']} has no desktop file in data/")
    packages = pins()
    if packages is not None and json.dumps(data, sort_keys=True) != json.dumps(manifest(packages), sort_keys=True):
        problems.append("io.github.castdeck.CastDeck.json does not match Package.resolved: run build-aux/flatpak/manifest.py")
    for p in problems:
        print("flatpak manifest:", p, file=sys.stderr)
    if not problems:
        print("flatpak manifest: valid, its paths exist" + ("" if packages is None else ", its Swift packages match Package.resolved"))
    return 1 if problems else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--check"]:
        sys.exit(check())
    packages = pins()
    if packages is None:
        sys.exit("manifest.py: no Package.resolved (run swift build first)")
    with open(MANIFEST, "w") as f:
        json.dump(manifest(packages), f, indent=2)
        f.write("\n")
    print(MANIFEST)
