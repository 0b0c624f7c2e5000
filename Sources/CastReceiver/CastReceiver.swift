// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

// CastReceiver: a simulated Cast receiver, an independent test oracle (it never imports
// CastClient). Real TLS, the receiver-0 platform, the Default Media Receiver's playback
// rules on a clock tests can drive, several senders at once, and injected faults.
//
//   CastReceiverServer ── NIO TLS listener, one event loop; start/stop, test accessors
//     └── SenderConnection (per socket) ──▶ ReceiverCore (all state, on that one loop)
//           ReceiverCore            ticker, lifecycle
//           +Connections            sockets, heartbeats, tp.connection virtual connections
//           +Routing                send/receive, faults on the way, routing by namespace
//           +ReceiverNamespace      receiver-0: GET_STATUS, LAUNCH, STOP, SET_VOLUME
//           +MediaNamespace         media requests → MediaPlayer, MEDIA_STATUS fan-out
//           +TestHooks              ADVANCE_CLOCK / CLOCK on the simulator namespace
//           +Group                  a speaker group's leader and members (multizone, shared
//                                   playback, member volumes); GroupSimulation starts one
//           +Replay                 answers with messages recorded from a real device instead
//           +Mirroring              Cast Streaming: OFFER → ANSWER, a StreamingReceiver per
//                                   OFFER, frames to MirrorFrameSink (--mirror-output),
//                                   the sound's to MirrorSoundSink; --mirror-codecs
//             └── MediaPlayer       pure state: +Time (breaks, end), +Requests, +Queue
//
//   ReceiverConfiguration: name, apps, faults, heartbeat, clock (SystemClock/ManualClock),
//   supported media commands, logger. ReceiverAnnouncer publishes it over mDNS.
