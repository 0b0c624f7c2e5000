// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

// CastDiscovery: which Cast devices there are, found by mDNS or added by address.
//
//   avahi-daemon ──D-Bus──▶ CastBrowser (AvahiBridge: threaded poll, browser, resolvers)
//                              │  TXTRecord → CastDevice, DeviceRegistry (one device per id)
//                              ▼
//   ManualDeviceStore ──▶ DeviceDirectory ◀── DeviceProber (CastClient's CastClientProber)
//   ($XDG_CONFIG_HOME/      │  the one device list: discovered + added by address,
//    castdeck/devices.json) │  persisted, probed; the window (AppModel) and
//                           ▼  `castctl discover` both read it
//                    events: AsyncStream<DiscoveryEvent>
//
//   resolveDevice(_:)       `--device NAME|HOST[:PORT]` → an address (castctl)
//   CastServicePublisher    announces a service (the simulated receiver uses it)
//
// Main types: CastDevice, DiscoveryEvent, DiscoveryError, CastBrowser, DeviceDirectory.
// DeviceAddress and DeviceProber come from CastCore (re-exported here), shared with
// CastClient, which discovery may not import.
@_exported import CastCore
