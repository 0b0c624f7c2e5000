// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// CastDeckUI: the window. Widgets render `AppModel` and send commands through its command table;
// they hold no playback state (only render caches) and never import the C module: every GTK
// call goes through GtkInterop's typed wrappers.
//
// Layout lives in GtkBuilder files beside the Swift that wires them (kebab-case of the type),
// compiled into the binary as a GResource under /io/github/castdeck/CastDeck (castdeck.gresource.xml,
// scripts/gen-resources.sh). Swift looks objects up by id and connects behaviour.
//
// Widget tree (file that builds it in brackets):
//
//   CastDeckApplication                       AdwApplication, app.quit, app.about [Application.swift]
//   └─ MainWindow                             AdwApplicationWindow [main-window.ui]
//      ├─ AdwHeaderBar: Back, AdwWindowTitle, main menu (Cast Screen… → MirrorDialog
//      │                                      [mirror-dialog.ui], Cast Desktop Audio)
//      ├─ GtkRevealer: MirrorBanner           [mirror-banner.ui] "Casting your screen to …", Stop
//      │                                      (win.stop-mirroring), while mirroring
//      ├─ AdwToastOverlay                     AppModel.notice → toast
//      │  └─ GtkStack "pages"
//      │     ├─ "devices": DeviceList         [device-list.ui]
//      │     │  ├─ AdwStatusPage              why nothing is listed
//      │     │  ├─ GtkListBox                 one AdwActionRow per device [device-row.ui], its
//      │     │  │                             menu: Cast Screen…, Cast Desktop Audio [DeviceList+Mirror]
//      │     │  ├─ Add device by address…  →  AddDeviceDialog [add-device-dialog.ui]
//      │     │  ├─ Session row                Cast Sample (win.cast-sample), Disconnect (win.disconnect)
//      │     │  └─ another app's row          ForeignAppView: icon, name, Stop App (win.stop-other-app)
//      │     └─ "player": ExpandedController  [expanded-controller.ui]
//      │        ├─ artwork, title, subtitle
//      │        ├─ ad banner                  "Ad 1 of 3 · 0:25", Skip ad (win.skip-ad)
//      │        ├─ seek bar + break markers   (GtkDrawingArea drawn with Cairo)
//      │        ├─ chapters: ChaptersView     [chapters.ui] the chapter playing under the title,
//      │        │                             ticks, Previous/Next chapter, the Chapters menu
//      │        ├─ ±30 s, Play/Pause, Stop    (win.seek-back-30, win.toggle-play, …)
//      │        ├─ 0.5× 1× 2×                 toggles bound to the stateful win.rate
//      │        └─ Mute, Volume, Stop Casting, Move to… → MoveDialog [move-dialog.ui],
//      │                                      Subtitles and audio → TracksPopover [tracks-popover.ui],
//      │                                      Subtitle style → StyleEditor [style-editor.ui]
//      └─ GtkRevealer: MiniController         [mini-controller.ui] (hidden, not just slid away,
//                                             while the player page shows)
//   MiniPlayer                                AdwWindow [mini-player.ui]: artwork, title, progress,
//                                             Play/Pause, Stop casting, Return (app.full-controller)
//   PlaybackClock                             the one 500 ms position tick of the main window
//                                             and the mini player [PlaybackClock.swift]
//
// Commands: AppModel's command table (CommandTable.swift) has one entry per command: name,
// label, keys, parameter, enabled rule, action. ModelActions makes one "win.<name>" GAction per
// entry; buttons bind with action-name, keys come from the entry's accelerators, so both share
// one code path and one enabled state. Sliders (seek, volume), queue rows and the quit dialog
// call `AppModel.perform` with the same actions.
//
// What the window does not build: the model and its services, and MPRIS. castdeck (the
// composition root) hands them in as `Services` (Application.swift): `makeModel`,
// `startBrowsing`, the demo receiver, and `startMediaControls`, which the application calls
// with GApplication's bus connection once the first frame is up. CastDeckUI does not import
// MPRIS.
