# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Sourced by build-aux/swift-build.sh (meson) and Benchmarks/lib.sh: how a release is built.
# - The Swift runtime and Foundation are linked statically: a process then starts without the
#   dynamic loader resolving thousands of symbols across a dozen Swift libraries (docs/gui.md,
#   "Start-up").
# - Every function gets its own section, and the linker (lld) places the functions that run
#   at start-up side by side, in the order of build-aux/startup-order.txt
#   (scripts/gen-startup-order.sh writes it). Start-up then faults in a few dense pages
#   instead of touching pages all over 30 MB of code, and fewer of them stay resident
#   (docs/performance.md, "Start-up layout").
# - Only the symbols the binary imports are in its dynamic symbol table. Swift's static
#   runtime asks the linker to export every symbol (-export-dynamic, for plugins that
#   would link against the executable; we load none), and then every symbol lookup made by
#   every shared library at load time and on first call searches the executable's 46,000
#   names first: 15 ms of the window's first frame.
# - Relative relocations are packed (DT_RELR, glibc ≥ 2.36): the loader reads a few kilobytes
#   instead of 3 MB of relocation entries.
# - Concrete generic types get their metadata from direct accessor calls, not from mangled names
#   the runtime demangles on first use (-disable-concrete-type-metadata-mangled-name-accessors):
#   a demangled name's protocol requirements are found by scanning every one of the binary's
#   11,000 conformance records, once per type and protocol, and in a short castctl process those
#   scans were a sixth of its CPU time. The accessors cost some code size and are as fast once
#   the metadata exists (docs/performance.md, "Eighth run").
# Every release build uses these same flags, so SwiftPM does not rebuild when scripts alternate.
_release_order="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/startup-order.txt"
RELEASE=(-c release --static-swift-stdlib
  -Xswiftc -Xfrontend -Xswiftc -function-sections
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
  -Xswiftc -use-ld=lld
  -Xlinker "--symbol-ordering-file=$_release_order" -Xlinker --no-warn-symbol-ordering
  -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic)
unset _release_order
