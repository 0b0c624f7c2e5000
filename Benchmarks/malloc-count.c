/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SPDX-FileCopyrightText: CastDeck contributors */
// Counts calls into the allocator, for the protocol benchmark's allocations per decoded
// message. Benchmarks/run.sh builds it and loads it with LD_PRELOAD; the benchmark finds
// castdeck_malloc_calls() with dlsym. Every call is passed on to glibc's own allocator.
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static atomic_ulong calls;

static inline void count(void) { atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed); }

void *malloc(size_t n) { count(); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { count(); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { count(); return __libc_realloc(p, n); }
void *aligned_alloc(size_t a, size_t n) { count(); return __libc_memalign(a, n); }
void *memalign(size_t a, size_t n) { count(); return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
    count();
    void *p = __libc_memalign(a, n);
    if (!p) return 12;  // ENOMEM
    *out = p;
    return 0;
}

unsigned long castdeck_malloc_calls(void) { return atomic_load_explicit(&calls, memory_order_relaxed); }
