// SPDX-FileCopyrightText: CastDeck contributors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The avahi-client API as CastDiscovery uses it: browse, resolve, publish, and the
// threaded poll that runs Avahi's callbacks on a thread of its own.
//
// The library is not linked: castdeck_avahi_load() opens libavahi-client.so.3 with dlopen
// the first time discovery starts. A program that never browses or publishes (castctl status
// with an address, the window before its first frame) does not load Avahi, D-Bus, systemd
// and libgcrypt at start-up, and a machine without the library gets a clear error instead of
// a program that does not start. The headers give the types and the signatures.
#ifndef CASTDECK_CAVAHI_H
#define CASTDECK_CAVAHI_H

#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-client/publish.h>
#include <avahi-common/address.h>
#include <avahi-common/alternative.h>
#include <avahi-common/defs.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/strlst.h>
#include <avahi-common/thread-watch.h>
#include <net/if.h>

// The anonymous-enum constants, typed as the C API expects them.
static inline AvahiIfIndex castdeck_avahi_if_unspec(void) { return AVAHI_IF_UNSPEC; }
static inline AvahiProtocol castdeck_avahi_proto_unspec(void) { return AVAHI_PROTO_UNSPEC; }
static inline AvahiProtocol castdeck_avahi_proto_inet(void) { return AVAHI_PROTO_INET; }
static inline AvahiProtocol castdeck_avahi_proto_inet6(void) { return AVAHI_PROTO_INET6; }

// Every avahi_* function CastDiscovery calls, without the prefix.
#define CASTDECK_AVAHI_FUNCTIONS(X) \
    X(address_snprint) X(alternative_service_name) X(client_errno) X(client_free) \
    X(client_get_state) X(client_new) X(entry_group_add_service_strlst) X(entry_group_commit) \
    X(entry_group_get_client) X(entry_group_is_empty) X(entry_group_new) X(entry_group_reset) \
    X(entry_group_update_service_txt_strlst) X(free) X(service_browser_free) \
    X(service_browser_get_client) X(service_browser_new) X(service_resolver_free) \
    X(service_resolver_get_client) X(service_resolver_new) X(strerror) X(string_list_add) \
    X(string_list_add_arbitrary) X(string_list_free) X(string_list_get_next) \
    X(string_list_get_size) X(string_list_get_text) X(threaded_poll_free) X(threaded_poll_get) \
    X(threaded_poll_lock) X(threaded_poll_new) X(threaded_poll_start) X(threaded_poll_stop) \
    X(threaded_poll_unlock)

/// The loaded functions: `avahi_client_new` is `client_new`, with the header's own signature.
typedef struct CastdeckAvahi {
#define CASTDECK_AVAHI_MEMBER(name) __typeof__(avahi_##name) *_Nonnull name;
    CASTDECK_AVAHI_FUNCTIONS(CASTDECK_AVAHI_MEMBER)
#undef CASTDECK_AVAHI_MEMBER
} CastdeckAvahi;

/// Loads the library once (thread-safe; later calls return the first answer). Returns 1 when
/// every function was found, 0 otherwise; castdeck_avahi_load_error() then says why. The
/// environment variable CASTDECK_AVAHI_LIBRARY names another file to open (tests use it).
int castdeck_avahi_load(void);
/// Why loading failed (dlerror's text), or "" after a successful load.
const char *_Nonnull castdeck_avahi_load_error(void);
/// The function table; only valid after castdeck_avahi_load() returned 1.
const CastdeckAvahi *_Nonnull castdeck_avahi(void);

#endif
