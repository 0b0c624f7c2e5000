// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

// CastCore: the few words the sender (CastClient) and discovery (CastDiscovery) share.
//
// docs/architecture.md keeps CastDiscovery and CastClient apart (neither imports the other), yet
// both speak of a device's address, both read files under the XDG base directories,
// and discovery asks the sender to probe devices added by address. Those shared words
// live here, once, with no dependency at all, so that neither side has to copy them:
//
//   CastCore ── DeviceAddress   HOST[:PORT] / [IPv6]:PORT, the one parser
//            ── DeviceProber    "is there a Cast device at this address?" (CastClient answers),
//                               ProbeFailure: why not (not found, not answering, …)
//            ── XDGDirectory    $XDG_CONFIG_HOME / $XDG_STATE_HOME / $XDG_CACHE_HOME for castdeck
//            ── trimmingWhitespace()
//            ── ImageUse        the places that show artwork and their sizes (AppModel asks for
//                               each, ImageCache picks and scales for it)
//            ── MediaChapter    a chapter (start, end, title): LocalMedia reads chapter files,
//                               the window (which may not import LocalMedia) and castctl show them
//
//   CastClient ─┐                 CastDiscovery ─┐
//               └─ @_exported import CastCore    └─ @_exported import CastCore
//
// Why not CastProtocol: that target is the wire (protobuf, JSON models), and discovery
// has no use for it; a target without dependencies keeps discovery's build small.
