#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# make-deb.sh [OUTDIR]: builds castdeck_VERSION-1_ARCH.deb (default OUTDIR: the source root).
#
# The files come from `meson install` into a staging root (so the package holds exactly what
# meson installs: both binaries, data files, translations, man pages, completions); the
# binaries are release builds with the Swift runtime linked statically (build-aux/release-
# flags.sh), so the package needs no Swift toolchain. `Depends:` is computed from the binaries
# by dpkg-shlibdeps. The package is checked with lintian; errors fail the build.
# SWIFTPM_SCRATCH=DIR reuses a release build directory (default .build-release).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
outdir="$(realpath "${1:-$root}")"
cd "$root"
version="$(sed -n 's/.*static let string = "\(.*\)"/\1/p' Sources/CastCore/Version.swift)"
[[ -n $version ]] || { echo "make-deb: no version in Sources/CastCore/Version.swift" >&2; exit 1; }
debversion="$version-1"
arch="$(dpkg --print-architecture)"
scratch="${SWIFTPM_SCRATCH:-$root/.build-release}"
work="$root/.build-deb"
# The staging root sits where dpkg-shlibdeps expects a package's files (debian/PACKAGE).
stage="$work/pkg/debian/castdeck"
for tool in meson ninja dpkg-shlibdeps dpkg-deb lintian; do
  command -v "$tool" >/dev/null || { echo "make-deb: $tool is missing (scripts/setup.sh installs it)" >&2; exit 1; }
done

rm -rf "$work"
mkdir -p "$work"
meson setup "$work/meson" --prefix=/usr --buildtype=plain \
  -Dswiftpm_configuration=release -Dswiftpm_scratch="$scratch" >"$work/meson-setup.log" ||
  { tail -20 "$work/meson-setup.log" >&2; exit 1; }
meson compile -C "$work/meson" >"$work/meson-compile.log" ||
  { tail -40 "$work/meson-compile.log" >&2; exit 1; }
DESTDIR="$stage" meson install -C "$work/meson" --no-rebuild >"$work/meson-install.log" ||
  { tail -20 "$work/meson-install.log" >&2; exit 1; }

# What Debian policy asks of a binary package's files.
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/castdeck" "$stage/usr/bin/castctl"
find "$stage/usr/share/man" -type f -name '*.[0-9]' -exec gzip -9n {} +
doc="$stage/usr/share/doc/castdeck"
mkdir -p "$doc"
cp build-aux/debian/copyright "$doc/copyright"
mkdir -p "$stage/usr/share/lintian/overrides"
grep -v '^#' build-aux/debian/lintian-overrides >"$stage/usr/share/lintian/overrides/castdeck"
date="$(date -R -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)")"
printf 'castdeck (%s) bookworm; urgency=medium\n\n  * Built from the CastDeck source tree, version %s.\n\n -- CastDeck developers <castdeck@users.noreply.github.com>  %s\n' \
  "$debversion" "$version" "$date" | gzip -9n >"$doc/changelog.Debian.gz"
find "$stage" -type d -exec chmod 0755 {} +
find "$stage" -type f -exec chmod 0644 {} +
chmod 0755 "$stage/usr/bin/"*

# Depends: the shared libraries the binaries load, as Debian 12 packages name them.
mkdir -p "$stage/DEBIAN"
printf 'Source: castdeck\n\nPackage: castdeck\nArchitecture: any\n' >"$work/pkg/debian/control"
depends="$(cd "$work/pkg" && dpkg-shlibdeps -O --warnings=0 \
  -e"$stage/usr/bin/castdeck" -e"$stage/usr/bin/castctl" | sed -n 's/^shlibs:Depends=//p')"
[[ -n $depends ]] || { echo "make-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

size="$(du -sk --exclude=DEBIAN "$stage" | cut -f1)"
sed -e "s/@VERSION@/$debversion/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
  -e "/^#/d" build-aux/debian/control.in >"$stage/DEBIAN/control"
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) >"$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/"*

deb="$outdir/castdeck_${debversion}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "make-deb: $deb ($(du -h "$deb" | cut -f1))"
echo "make-deb: Depends: $depends"
# lintian: errors fail the package; warnings are listed (README, "Debian package").
lintian --tag-display-limit 0 --show-overrides "$deb" | tee "$work/lintian.txt" || true
if grep -q '^E: ' "$work/lintian.txt"; then
  echo "make-deb: lintian reported errors" >&2
  exit 1
fi
