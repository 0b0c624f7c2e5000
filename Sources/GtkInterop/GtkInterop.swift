// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// GtkInterop: typed Swift wrappers for exactly the GTK 4 / libadwaita API CastDeck uses, so
// that the widgets (CastDeckUI) never touch C. No application logic.
//
//   WidgetWrapper (protocol: a GtkWidget pointer + typed members)
//   ├─ Widget, Label, Button, ToggleButton, MenuButton, Popover, Scale, ProgressBar,
//   │  Picture, Image, Box, Stack, Revealer, Spinner, ScrolledWindow, ListBox, SpinButton, Entry,
//   │  DropDown, ColorButton, DrawingArea                                 Widgets.swift, Drawing.swift
//   └─ Window, ApplicationWindow, AdwWindow, ActionRow, PreferencesRow, PreferencesGroup,
//      StatusPage, WindowTitle, ToastOverlay, MessageDialog, AboutWindow  Adwaita.swift
//   Builder          .ui from a resource/file/string; `get("id", as: Label.self)` checks the class
//   Application      AdwApplication: startup/activate, app actions, accelerators
//   SimpleAction     a GAction (typed parameter and state), ActionGroup   Action.swift
//   Cairo, TextLayout drawing inside a DrawingArea's draw function (Pango for text)
//   ToggleButton.choice, SpinButton.setNumberText  one-of-many rows, numbers in the UI's digits   Choices.swift
//
// Signals come as typed methods (`onClicked`, `onValueChanged`, `onResponse(String)`), built on
// GLibInterop's closure boxes. Wrappers are structs around pointers GTK owns; a builder's
// non-window objects live as long as the builder, so owners keep their Builder.
