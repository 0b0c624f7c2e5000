# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# CastDeck's two entry points (see README.md):
#   make demo   install what is missing, build, and run the app with a simulated receiver
#   make check  install what is missing, build, and run every test
SHELL := /bin/bash
SWIFT ?= swift
# Executables the tests run as separate processes.
TEST_TOOLS := castctl imagecache-writer castdeck

.PHONY: demo check setup build test system-test bench fuzz soak mirror-soak lint format deb package-test

setup:
	./scripts/setup.sh

build: setup
	$(SWIFT) build --product CastDeckPackageTests

demo: setup
	./scripts/demo.sh

# Unit and integration tests in Swift (under Xvfb and a private session bus, so the GLib/GTK
# interop and MPRIS bus tests run instead of skipping), then the system tests (foreign peers,
# mDNS sandbox, the real window under Xvfb) that Tests/System/run-*.sh drive.
# Only our own products are built: a plain `swift build` would also compile
# swift-protobuf's C++ protoc executable, which nothing here uses.
check: setup
	./scripts/lint.sh
	$(SWIFT) build --product CastDeckPackageTests
	for p in $(TEST_TOOLS); do $(SWIFT) build --product $$p || exit 1; done
	./scripts/check-data.sh "$$($(SWIFT) build --show-bin-path)/castctl"
	dbus-run-session -- env GDK_BACKEND=x11 GSK_RENDERER=cairo xvfb-run -a -s "-noreset -screen 0 1280x800x24 -nolisten tcp" $(SWIFT) test --skip-build
	./scripts/system-tests.sh

# House rules of the source tree (layering, licence headers, file length, one version, format).
lint:
	./scripts/lint.sh

# Formats every Swift source as .swift-format says (lint fails on what is not).
format:
	./scripts/format.sh

# The Debian package (release build with the Swift runtime linked statically; lintian).
deb: setup
	./scripts/make-deb.sh

# The package on a clean Debian 12 root made by debootstrap (needs root; a few minutes).
package-test: setup
	./scripts/package-test.sh

system-test: setup
	./scripts/system-tests.sh

bench: setup
	./Benchmarks/run.sh

fuzz:
	./scripts/fuzz.sh

# Two hours of the load test (Tests/System/run-load.sh): 10 senders round after round while
# the window and castctl watch follow; every command answered, states agree, memory flat.
# Not part of `make check` (which runs the short form). SOAK_SECONDS=N for another length.
SOAK_SECONDS ?= 7200
soak: setup
	SOAK_SECONDS=$(SOAK_SECONDS) LOAD_COMMANDS=$${LOAD_COMMANDS:-2000} LOAD_RESULTS=$${LOAD_RESULTS:-/tmp/castdeck-soak-results.json} \
	  bash Tests/System/run-load.sh

# Thirty minutes of screen mirroring at 720p30 on each path of BENCH_MIRROR_PATHS (Cast
# Streaming, then HTTP; Benchmarks/mirror/run.sh): the glass-to-glass delay must not drift
# (drift = last fifth's median − first fifth's; the first and last minute's medians are printed).
mirror-soak: setup
	BENCH_MIRROR_SECONDS=$${BENCH_MIRROR_SECONDS:-1800} BENCH_MIRROR_SIZES=1280x720 BENCH_MIRROR_PATHS="$${BENCH_MIRROR_PATHS:-cast-h264 http}" ./Benchmarks/mirror/run.sh
