// SPDX-FileCopyrightText: CastDeck contributors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The avahi-client API as CastDiscovery uses it: browse, resolve, publish, and the
// threaded poll that runs Avahi's callbacks on a thread of its own. No logic here.
#ifndef CASTDECK_CAVAHI_SHIM_H
#define CASTDECK_CAVAHI_SHIM_H

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

#endif
