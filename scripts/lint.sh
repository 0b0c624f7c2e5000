#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# lint.sh: the house rules of the source tree, checked (run first by `make check`).
#   - layering: each target imports only what docs/architecture.md ("allowed-imports") lets
#     it; C modules (CGtk, CAvahi, CGdkPixbuf, ...) appear only in the targets listed there
#   - every source file carries its SPDX licence header in its first lines
#   - no Swift file over 400 lines (generated protobuf code excepted)
#   - every Swift source that marks strings with tr()/ntr() is listed in po/POTFILES.in
#   - the Swift sources are formatted as .swift-format says (scripts/format.sh --check)
#   - one version: meson.build's project version and the metainfo's newest release are
#     CastDeckVersion (Sources/CastCore/Version.swift)
#   - nothing outside the test scripts points into ../shared, which a clone does not have
#   - the wire models' generated readers and writers match their declarations (scripts/gen-wire.py)
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - <<'PY'
import os, re, subprocess, sys

problems = []
tracked = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], capture_output=True, text=True, check=True).stdout.split()
tracked = [f for f in tracked if os.path.isfile(f)]
GENERATED = {"Sources/CastProtocol/Proto/cast_channel.pb.swift", "Sources/CastDeckResources/castdeck-resources.c"}

# Layering.
doc = open("docs/architecture.md", encoding="utf-8").read()
block = re.search(r"```allowed-imports\n(.*?)```", doc, re.S)
if not block:
    problems.append("docs/architecture.md has no ```allowed-imports block")
    allowed = {}
else:
    allowed = {}
    for line in block.group(1).splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            target, _, modules = line.partition(":")
            allowed[target.strip()] = set(modules.split())
import_re = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)
for f in tracked:
    if not f.endswith(".swift") or not f.startswith("Sources/"):
        continue
    target = f.split("/")[1]
    if target not in allowed:
        problems.append(f"{f}: target {target} is not in docs/architecture.md's allowed-imports")
        continue
    for m in import_re.finditer(open(f, encoding="utf-8").read()):
        if m.group(1) not in allowed[target]:
            line = open(f, encoding="utf-8").read()[:m.start()].count("\n") + 1
            problems.append(f"{f}:{line}: {target} may not import {m.group(1)} (docs/architecture.md, allowed-imports)")

# Licence headers.
SOURCE = re.compile(r"(\.(swift|c|h|sh|py|ui|css|xml|in|1)|(^|/)(Makefile|meson\.build|meson_options\.txt))$")
for f in tracked:
    if not SOURCE.search(f) or f.startswith(("Tests/CastProtocolTests/Fixtures/", "Tests/CastClientTests/Fixtures/")):
        continue
    with open(f, encoding="utf-8", errors="replace") as fh:
        head = "".join(fh.readline() for _ in range(6))
    if "SPDX-License-Identifier:" not in head:
        problems.append(f"{f}: no SPDX-License-Identifier in its first lines")

# File length.
for f in tracked:
    if f.endswith(".swift") and f not in GENERATED:
        n = sum(1 for _ in open(f, encoding="utf-8", errors="replace"))
        if n > 400:
            problems.append(f"{f}: {n} lines (at most 400: split it by concern)")

# Formatted as .swift-format says (scripts/format.sh formats).
fmt = subprocess.run(["scripts/format.sh", "--check"], capture_output=True, text=True)
if fmt.returncode != 0:
    out = (fmt.stdout + fmt.stderr).strip().splitlines()
    problems.append("not formatted (run scripts/format.sh): " + "; ".join(out[:3]) + (" …" if len(out) > 3 else ""))

# Every source that marks strings for translation is read by po/update-pot.sh.
potfiles = {l.strip() for l in open("po/POTFILES.in", encoding="utf-8") if l.strip() and not l.startswith("#")}
marker = re.compile(r'(?<![\w.])n?tr\("')
for f in tracked:
    if f.endswith(".swift") and f.startswith("Sources/") and f not in potfiles:
        code = [l for l in open(f, encoding="utf-8") if not l.lstrip().startswith("//")]
        if any(marker.search(l) for l in code):
            problems.append(f"{f}: marks strings with tr()/ntr() but is not in po/POTFILES.in")

# One version.
version = re.search(r'static let string = "([^"]+)"', open("Sources/CastCore/Version.swift").read()).group(1)
meson = re.search(r"version:\s*'([^']+)'", open("meson.build").read()).group(1)
if meson != version:
    problems.append(f"meson.build says version {meson}, Sources/CastCore/Version.swift {version}")
releases = re.findall(r'<release version="([^"]+)"', open("data/io.github.castdeck.CastDeck.metainfo.xml.in").read())
if not releases or releases[0] != version:
    problems.append(f"the metainfo's newest <release> is {releases[:1]}, not {version}")

# Nothing but the test scripts leans on ../shared.
TEST_SCRIPTS = ("Tests/", "Benchmarks/", "scripts/system-tests.sh", ".ci/")
for f in tracked:
    if f.startswith(TEST_SCRIPTS) or f == "scripts/lint.sh":
        continue
    try:
        text = open(f, encoding="utf-8").read()
    except (UnicodeDecodeError, IsADirectoryError):
        continue
    for i, line in enumerate(text.splitlines(), 1):
        if "../shared" in line:
            problems.append(f"{f}:{i}: points into ../shared, which a clone of the repository does not have")

# Wire models: Models/Generated is what scripts/gen-wire.py makes of the declarations.
wire = subprocess.run(["python3", "scripts/gen-wire.py", "--check"], capture_output=True, text=True)
if wire.returncode:
    problems += wire.stderr.strip().splitlines() or ["scripts/gen-wire.py --check failed"]

for p in problems:
    print("lint:", p, file=sys.stderr)
if problems:
    sys.exit(f"lint: {len(problems)} problem(s)")
print(f"lint: {len([f for f in tracked if f.endswith('.swift')])} Swift files: layering, headers, length, version, self-containment and generated wire code in order")
PY
