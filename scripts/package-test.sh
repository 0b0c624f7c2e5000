#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# package-test.sh [DEB]: the Debian package on a clean Debian 12 system (`make package-test`).
#
# Makes a minimal Debian 12 root with debootstrap from the package source apt uses here,
# installs the .deb in it with `apt-get install ./castdeck_*.deb` (dependencies resolved by
# apt; no Swift toolchain anywhere in that root), and inside it runs: castctl --version,
# castctl receiver with castctl status against it, and castdeck --demo on an Xvfb display
# (a screenshot is read back by OCR and must show the demo device). Then `apt-get remove`
# must leave none of the package's files behind. Needs root (debootstrap, chroot, mounts).
# Without DEB it builds one with scripts/make-deb.sh. KEEP=1 keeps the root for a look.
set -euo pipefail
root_dir="$(cd "$(dirname "$0")/.." && pwd)"
[[ $(id -u) == 0 ]] || { echo "package-test: must run as root (debootstrap, chroot)" >&2; exit 1; }
for tool in debootstrap Xvfb import tesseract; do
  command -v "$tool" >/dev/null || { echo "package-test: $tool is missing (scripts/setup.sh installs it)" >&2; exit 1; }
done
deb="${1:-}"
if [[ -z $deb ]]; then
  "$root_dir/scripts/make-deb.sh" "$root_dir/.build-deb-out" || exit 1
  deb="$(ls "$root_dir"/.build-deb-out/castdeck_*.deb | tail -1)"
fi
deb="$(realpath "$deb")"
version="$(dpkg-deb -f "$deb" Version)"
upstream="${version%-*}"

# The Debian mirror apt uses here (the first source that serves bookworm main).
mirror="$(python3 - <<'PY'
import glob, re
def stanzas():
    for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        for block in open(path).read().split("\n\n"):
            fields = dict(re.findall(r"^(\S+):\s*(.*)$", block, re.M))
            yield fields.get("URIs", "").split(), fields.get("Suites", "").split(), fields.get("Components", "").split()
    for path in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
        try: lines = open(path).read().splitlines()
        except OSError: continue
        for line in lines:
            m = re.match(r"^deb\s+(?:\[[^]]*\]\s+)?(\S+)\s+(\S+)\s+(.*)$", line.strip())
            if m: yield [m.group(1)], [m.group(2)], m.group(3).split()
for uris, suites, components in stanzas():
    if "bookworm" in suites and "main" in components and uris:
        print(uris[0]); break
PY
)"
[[ -n $mirror ]] || { echo "package-test: no apt source for bookworm main found in /etc/apt" >&2; exit 1; }

work="$(mktemp -d /var/tmp/castdeck-package-test.XXXXXX)"
chroot_dir="$work/root"
out="$root_dir/.build-package-test"
mkdir -p "$out"
xvfb_pid="" castdeck_pid="" receiver_pid=""
cleanup() {
  set +e
  [[ -n $castdeck_pid ]] && kill "$castdeck_pid" 2>/dev/null
  [[ -n $receiver_pid ]] && kill "$receiver_pid" 2>/dev/null
  # Whatever still runs inside the root (found by its root directory, never by name: a
  # name would also match processes outside, this script among them).
  for proc in /proc/[0-9]*; do
    [[ $(readlink "$proc/root" 2>/dev/null) == "$chroot_dir" ]] && kill "${proc#/proc/}" 2>/dev/null
  done
  [[ -n $xvfb_pid ]] && kill "$xvfb_pid" 2>/dev/null
  sleep 1
  for m in tmp/.X11-unix dev/pts dev sys proc; do
    mountpoint -q "$chroot_dir/$m" 2>/dev/null && umount -l "$chroot_dir/$m"
  done
  if [[ ${KEEP:-0} == 1 ]]; then echo "package-test: root kept in $chroot_dir"; else rm -rf "$work"; fi
}
trap cleanup EXIT
step() { echo "package-test: $*"; }
in_root() { chroot "$chroot_dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

step "debootstrap --variant=minbase bookworm from $mirror"
debootstrap --variant=minbase bookworm "$chroot_dir" "$mirror" >"$out/debootstrap.log" 2>&1 ||
  { tail -20 "$out/debootstrap.log" >&2; exit 1; }
mount -t proc proc "$chroot_dir/proc"
mount --rbind /sys "$chroot_dir/sys"
mount --rbind /dev "$chroot_dir/dev"
cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf"
in_root apt-get update -qq >"$out/apt-update.log" 2>&1
# The only thing the test itself needs inside the root: a session bus for the window
# (GApplication registers its name there), as every desktop session has.
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends dbus >"$out/apt-test-tools.log" 2>&1

# Every file of the root (what apt and dpkg keep for themselves aside).
snapshot() {
  (cd "$chroot_dir" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./tmp -o -path ./run \
    -o -path ./var/cache -o -path ./var/lib/apt -o -path ./var/lib/dpkg -o -path ./var/log -o -path ./root \) -prune \
    -o ! -type d -print | sort)
}
step "apt-get install ./$(basename "$deb")"
cp "$deb" "$chroot_dir/tmp/"
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "./tmp/$(basename "$deb")" \
  >"$out/apt-install.log" 2>&1 || { tail -30 "$out/apt-install.log" >&2; exit 1; }
grep -E '^(Setting up|The following NEW)' "$out/apt-install.log" | head -3 || true
echo "package-test: $(grep -c '^Setting up' "$out/apt-install.log") packages set up"
snapshot >"$work/installed.txt"

step "no Swift toolchain in the root"
if in_root /bin/sh -c 'command -v swift swiftc' >/dev/null; then echo "package-test: swift is on PATH in the root" >&2; exit 1; fi
swiftlibs="$(find "$chroot_dir" -xdev \( -name 'libswiftCore*' -o -name 'libFoundation*.so*' -o -name 'libdispatch.so*' \) -print -quit)"
[[ -z $swiftlibs ]] || { echo "package-test: Swift runtime library in the root: $swiftlibs" >&2; exit 1; }

step "castctl --version"
got="$(in_root castctl --version)"
[[ $got == "$upstream" ]] || { echo "package-test: castctl --version said '$got', expected '$upstream'" >&2; exit 1; }
echo "  $got"
in_root man -w castctl >/dev/null 2>&1 || test -f "$chroot_dir/usr/share/man/man1/castctl.1.gz" ||
  { echo "package-test: castctl(1) is not installed" >&2; exit 1; }
for f in usr/share/man/man1/castdeck.1.gz usr/share/bash-completion/completions/castctl \
         usr/share/zsh/vendor-completions/_castctl usr/share/fish/vendor_completions.d/castctl.fish \
         usr/share/applications/io.github.castdeck.CastDeck.desktop usr/share/metainfo/io.github.castdeck.CastDeck.metainfo.xml \
         usr/share/glib-2.0/schemas/io.github.castdeck.CastDeck.gschema.xml usr/share/locale/fa/LC_MESSAGES/castdeck.mo; do
  [[ -e $chroot_dir/$f ]] || { echo "package-test: /$f is not installed" >&2; exit 1; }
done

step "castctl receiver, castctl cast and castctl status against it"
mkfifo "$work/receiver.out"
chroot "$chroot_dir" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root castctl receiver --host 127.0.0.1 --port 0 --name "Package Test" \
  >"$work/receiver.out" 2>"$out/receiver.log" &
receiver_pid=$!
exec 3<"$work/receiver.out"
read -r -t 30 line <&3 || { echo "package-test: castctl receiver did not start" >&2; cat "$out/receiver.log" >&2; exit 1; }
address="${line#listening on }"
in_root castctl cast http://127.0.0.1:9/film.mp4 --device "$address" --timeout 20 | sed 's/^/  cast: /' ||
  { echo "package-test: castctl cast failed" >&2; exit 1; }
status="$(in_root castctl status --device "$address" --timeout 20)" || { echo "package-test: castctl status failed" >&2; exit 1; }
echo "$status" | sed 's/^/  /'
grep -q "Default Media Receiver" <<<"$status" && grep -q "film.mp4" <<<"$status" ||
  { echo "package-test: castctl status does not show the media it cast" >&2; exit 1; }
kill "$receiver_pid"; wait "$receiver_pid" 2>/dev/null || true; receiver_pid=""; exec 3<&-

step "castdeck --demo under Xvfb"
display=":$((90 + RANDOM % 9))"
mkdir -p "$chroot_dir/tmp/.X11-unix"
Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp -noreset >"$out/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 50); do [[ -S /tmp/.X11-unix/X${display#:} ]] && break; sleep 0.1; done
mount --bind /tmp/.X11-unix "$chroot_dir/tmp/.X11-unix"
chroot "$chroot_dir" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 DISPLAY="$display" GDK_BACKEND=x11 \
  GSK_RENDERER=cairo dbus-run-session -- castdeck --demo >"$out/castdeck.log" 2>&1 &
castdeck_pid=$!
shot="$out/castdeck-demo.png"
found=""
for _ in $(seq 60); do
  sleep 1
  kill -0 "$castdeck_pid" 2>/dev/null || { echo "package-test: castdeck exited" >&2; cat "$out/castdeck.log" >&2; exit 1; }
  import -display "$display" -window root "$shot" 2>/dev/null || continue
  # OCR of the screen as it is, then at twice its size: the demo device's row must be there.
  convert "$shot" -resize 200% "$work/ocr.png"
  text="$(tesseract "$shot" - 2>/dev/null; tesseract "$work/ocr.png" - 2>/dev/null)" || true
  if grep -q "Demo Receiver" <<<"$text"; then found=1; break; fi
done
[[ -n $found ]] || { echo "package-test: the window never showed the demo device (see $shot)" >&2; exit 1; }
echo "  the window shows \"Demo Receiver\" ($shot)"
kill "$castdeck_pid"; wait "$castdeck_pid" 2>/dev/null || true; castdeck_pid=""
umount -l "$chroot_dir/tmp/.X11-unix"

step "apt-get remove castdeck"
in_root dpkg -L castdeck | sort >"$work/files.txt"
(cd "$chroot_dir" && while read -r f; do [[ -d ".$f" ]] || echo ".$f"; done <"$work/files.txt") | sort >"$work/package-files.txt"
in_root env DEBIAN_FRONTEND=noninteractive apt-get remove -y castdeck >"$out/apt-remove.log" 2>&1
left=""
while read -r f; do
  [[ -f $chroot_dir$f || -L $chroot_dir$f ]] && left+="$f"$'\n'
done <"$work/files.txt"
[[ -z $left ]] || { echo "package-test: files of the package left after removal:" >&2; echo "$left" >&2; exit 1; }
# The removal takes away exactly the package's files: nothing else disappears and nothing
# appears, but the caches that dpkg triggers rebuild (schemas, icons, MIME, desktop files).
snapshot >"$work/removed.txt"
caches='/(gschemas\.compiled|icon-theme\.cache|mimeinfo\.cache|ld\.so\.cache)$'
gone="$(comm -23 "$work/installed.txt" "$work/removed.txt" | comm -23 - "$work/package-files.txt" | grep -vE "$caches")" || true
new="$(comm -13 "$work/installed.txt" "$work/removed.txt" | grep -vE "$caches")" || true
[[ -z $gone ]] || { echo "package-test: the removal took files that were not the package's:" >&2; echo "$gone" >&2; exit 1; }
[[ -z $new ]] || { echo "package-test: the removal left new files behind:" >&2; echo "$new" >&2; exit 1; }
echo "package-test: passed ($(wc -l <"$work/package-files.txt") files installed and removed without a trace; screenshot $shot)"
