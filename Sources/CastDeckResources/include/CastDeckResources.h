/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SPDX-FileCopyrightText: CastDeck contributors */
#ifndef CASTDECK_RESOURCES_H
#define CASTDECK_RESOURCES_H

/* The window's GResource bundle (.ui files, CSS, icons), generated from
 * Sources/CastDeckUI/castdeck.gresource.xml by scripts/gen-resources.sh into
 * castdeck-resources.c. castdeck registers it once at start-up, before GTK needs it. */
void castdeck_register_resource(void);
void castdeck_unregister_resource(void);

#endif
