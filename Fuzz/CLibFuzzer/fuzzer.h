/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SPDX-FileCopyrightText: CastDeck contributors */
#ifndef CASTDECK_FUZZER_H
#define CASTDECK_FUZZER_H
#include <stddef.h>
#include <stdint.h>
/* libFuzzer's entry for programs that keep their own main(); provided by
   the toolchain's libclang_rt.fuzzer when linking with -sanitize=fuzzer. */
int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*callback)(const uint8_t *data, size_t size));
#endif
