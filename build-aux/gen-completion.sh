#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# gen-completion.sh CASTCTL SHELL: castctl's completion script for SHELL (bash, zsh or fish),
# written by castctl itself (ArgumentParser). CASTCTL may be a bare file name in the current
# folder (as meson passes it), which must not be looked up on PATH.
set -eu
case "$1" in */*) castctl="$1" ;; *) castctl="./$1" ;; esac
# A completion file is sourced, not run: no #! line (bash's as ArgumentParser writes it has one).
"$castctl" --generate-completion-script "$2" | sed '1{/^#!/d}'
