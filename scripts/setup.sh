#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Installs everything CastDeck needs on Debian 12, idempotently:
#   - system packages through apt-get (only the missing ones; nothing when all are present)
#   - the Python peers (pychromecast, zeroconf) into a project-local venv at .venv
# Used by `make demo` and `make check`; safe to run again and again.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages, grouped by what needs them.
PKGS=(
  # build: Swift's C interop modules and TLS
  pkg-config libssl-dev libgtk-4-dev libadwaita-1-dev libavahi-client-dev libgdk-pixbuf-2.0-dev
  # discovery tests: a private D-Bus + avahi-daemon inside the mDNS sandbox (Tests/System/run-discovery.sh)
  dbus avahi-daemon avahi-utils iproute2 util-linux
  # GUI tests: the real window under Xvfb, read through AT-SPI from Debian's python3
  xvfb xauth at-spi2-core python3-pyatspi gir1.2-atspi-2.0 python3-gi imagemagick
  # GNOME packaging: meson install, schemas, translations, metainfo validation
  meson ninja-build gettext libglib2.0-dev-bin appstream desktop-file-utils
  # the Debian package and its clean-root test (make deb, make package-test), the manual
  # pages' check (groff) and the Flatpak manifest's (flatpak-builder --show-manifest)
  dpkg-dev lintian debootstrap tesseract-ocr tesseract-ocr-eng groff-base flatpak-builder
  # gtk4-encode-symbolic-svg: the pre-rendered symbolic icon (scripts/gen-resources.sh)
  libgtk-4-bin
  # the venv for the Python peers
  python3-venv
  # benchmarks and tooling
  hyperfine procps
  # casting local files (issue 12): ffprobe/ffmpeg for the probe and test media, curl and
  # chromium (headless, as the receiver stand-in) for the HTTP tests, nginx-light as the
  # benchmark peer
  ffmpeg curl chromium nginx-light
  # MPRIS tests (issue 14): real MPRIS clients on a private session bus (dbus-run-session,
  # dbus-monitor, gdbus introspect/call), xdotool for keys in the mini player under Xvfb
  playerctl dbus-bin libglib2.0-bin xdotool
  # network-fault tests (issue 17): nft rules inside the tests' own network namespaces
  nftables
  # screen mirroring (issue 33): xwininfo for an X11 source's size, GIO's headers for the
  # screen-cast portal client, GStreamer's pipewiresrc for a Wayland source; the tests' frame
  # counter (Tk), and a whole GNOME desktop without a screen for the portal test (mutter
  # headless, PipeWire, the portal with its GNOME backend, answered through AT-SPI)
  x11-utils libglib2.0-dev gstreamer1.0-tools gstreamer1.0-pipewire gstreamer1.0-plugins-base python3-tk
  mutter pipewire wireplumber xdg-desktop-portal xdg-desktop-portal-gnome gir1.2-gtk-4.0 fuse3
  # the desktop's sound over Cast Streaming (issue 33): a private PulseAudio server with a null
  # sink for the sound tests and the benchmark (Tests/System/mirror/pulse.sh), pactl to ask it
  pulseaudio pulseaudio-utils
)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""; [[ $(id -u) == 0 ]] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  # Refresh the package lists only when they are missing or older than a day.
  if [[ -z $(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages' -mtime -1 2>/dev/null | head -1) ]]; then
    $SUDO apt-get update -qq
  fi
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Swift itself is not a Debian package; say clearly when it is missing.
command -v swift >/dev/null || { echo "setup: swift is not on PATH (Swift 6.x from swift.org is needed)" >&2; exit 1; }

# Python peers, pinned, into .venv (re-created only when its requirements change).
PY=${PYTHON:-python3}
req=scripts/requirements.txt
if [[ ! -x .venv/bin/python ]] || ! cmp -s "$req" .venv/.requirements 2>/dev/null; then
  echo "setup: preparing .venv with $(tr '\n' ' ' < "$req")"
  rm -rf .venv
  "$PY" -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check -r "$req"
  cp "$req" .venv/.requirements
fi
