// SPDX-FileCopyrightText: CastDeck contributors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Opens libavahi-client.so.3 on first use (see include/CAvahi.h for why it is not linked).
#include "CAvahi.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static CastdeckAvahi table;
static char load_error[512];
static int loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    const char *path = getenv("CASTDECK_AVAHI_LIBRARY");
    if (path == NULL || *path == '\0') path = "libavahi-client.so.3";
    // RTLD_LOCAL: Avahi's symbols stay out of the global scope, so nothing else binds to them.
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s", why ? why : path);
        return;
    }
    // dlsym on the handle also searches its dependencies (libavahi-common).
#define CASTDECK_AVAHI_RESOLVE(name)                                                          \
    table.name = (__typeof__(avahi_##name) *)dlsym(handle, "avahi_" #name);                   \
    if (table.name == NULL) {                                                                 \
        snprintf(load_error, sizeof load_error, "%s has no function avahi_%s", path, #name); \
        dlclose(handle);                                                                      \
        return;                                                                               \
    }
    CASTDECK_AVAHI_FUNCTIONS(CASTDECK_AVAHI_RESOLVE)
#undef CASTDECK_AVAHI_RESOLVE
    loaded = 1;
}

int castdeck_avahi_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *castdeck_avahi_load_error(void) {
    pthread_once(&once, load);
    return load_error;
}

const CastdeckAvahi *castdeck_avahi(void) { return &table; }
