/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SPDX-FileCopyrightText: CastDeck contributors */
#ifndef CGTK_SHIM_H
#define CGTK_SHIM_H

#include <gtk/gtk.h>
#include <adwaita.h>
#include <glib-unix.h>
#include <libintl.h>
#include <locale.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

/* libdispatch's CoreFoundation hooks: an eventfd signalled when main-queue work is
 * enqueued, and the drain function. Exported by libdispatch.so, declared only in its
 * private headers. */
extern int  _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *_Nullable msg);

static inline int cgtk_is_main_thread(void) { return syscall(SYS_gettid) == getpid(); }

/* Single-property accessible label (gtk_accessible_update_property is variadic). */
static inline void cgtk_accessible_set_label(GtkWidget *_Nonnull w, const char *_Nonnull label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(w), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}
static inline void cgtk_accessible_set_description(GtkWidget *_Nonnull w, const char *_Nonnull d) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(w), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, d, -1);
}
static inline void cgtk_accessible_set_pressed(GtkWidget *_Nonnull w, int pressed) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(w), GTK_ACCESSIBLE_STATE_PRESSED,
        pressed ? GTK_ACCESSIBLE_TRISTATE_TRUE : GTK_ACCESSIBLE_TRISTATE_FALSE, -1);
}
/* A checked state for assistive technology (a one-of-many choice row). */
static inline void cgtk_accessible_set_checked(GtkWidget *_Nonnull w, int checked) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(w), GTK_ACCESSIBLE_STATE_CHECKED,
        checked ? GTK_ACCESSIBLE_TRISTATE_TRUE : GTK_ACCESSIBLE_TRISTATE_FALSE, -1);
}
/* A toggle button that assistive technology sees as a radio button (the accessible role can be
 * given only when the widget is made, and g_object_new is variadic). */
static inline GtkWidget *_Nonnull cgtk_radio_toggle_button_new(void) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_TOGGLE_BUTTON, "accessible-role", GTK_ACCESSIBLE_ROLE_RADIO, NULL));
}
/* Whether the widget's accessible label is exactly `label` (GTK 4.8 has no getter; the test
 * helper reads the AT context). Used by tests. */
static inline int cgtk_accessible_label_is(GtkWidget *_Nonnull w, const char *_Nonnull label) {
    char *mismatch = gtk_test_accessible_check_property(GTK_ACCESSIBLE(w), GTK_ACCESSIBLE_PROPERTY_LABEL, label);
    int same = mismatch == NULL;
    g_free(mismatch);
    return same;
}
static inline const GVariantType *_Nonnull cgtk_variant_type(const char *_Nonnull s) {
    return G_VARIANT_TYPE(s);
}
/* Static GVariant types (a type made from a Swift string would point into a temporary). */
static inline const GVariantType *_Nonnull cgtk_variant_type_double(void) { return G_VARIANT_TYPE_DOUBLE; }
static inline const GVariantType *_Nonnull cgtk_variant_type_int32(void) { return G_VARIANT_TYPE_INT32; }
static inline const GVariantType *_Nonnull cgtk_variant_type_boolean(void) { return G_VARIANT_TYPE_BOOLEAN; }
/* Set an int/double/boolean/string property without the variadic g_object_set. */
static inline void cgtk_set_bool(gpointer _Nonnull obj, const char *_Nonnull name, int v) {
    g_object_set(obj, name, (gboolean)v, NULL);
}
static inline void cgtk_set_int(gpointer _Nonnull obj, const char *_Nonnull name, int v) {
    g_object_set(obj, name, v, NULL);
}
static inline void cgtk_set_string(gpointer _Nonnull obj, const char *_Nonnull name, const char *_Nullable v) {
    g_object_set(obj, name, v, NULL);
}
static inline GtkWidget *_Nullable cgtk_builder_widget(GtkBuilder *_Nonnull b, const char *_Nonnull name) {
    return GTK_WIDGET(gtk_builder_get_object(b, name));
}

#endif
