/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SPDX-FileCopyrightText: CastDeck contributors */
/* The peer for the start-up benchmark: a minimal C GTK 4 + libadwaita window (header bar,
 * a boxed list with one row, a mini-controller-like bar), exiting at its first painted frame. */
#include <adwaita.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static gboolean fired = FALSE;

static void after_paint(GdkFrameClock *clock, gpointer app) {
  if (fired) return;
  fired = TRUE;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  long long now = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
  const char *t0 = getenv("CASTDECK_T0_NS");
  if (t0) printf("first-frame-ms %.1f\n", (now - atoll(t0)) / 1e6);
  fflush(stdout);
  g_application_quit(G_APPLICATION(app));
}

static void on_map(GtkWidget *w, gpointer app) {
  g_signal_connect(gtk_widget_get_frame_clock(w), "after-paint", G_CALLBACK(after_paint), app);
}

static void activate(GtkApplication *app, gpointer data) {
  GtkWidget *win = adw_application_window_new(app);
  gtk_window_set_default_size(GTK_WINDOW(win), 720, 760);
  GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append(GTK_BOX(box), adw_header_bar_new());
  GtkWidget *list = gtk_list_box_new();
  gtk_widget_add_css_class(list, "boxed-list");
  GtkWidget *row = adw_action_row_new();
  adw_preferences_row_set_title(ADW_PREFERENCES_ROW(row), "Demo Receiver");
  gtk_list_box_append(GTK_LIST_BOX(list), row);
  gtk_widget_set_vexpand(list, TRUE);
  gtk_box_append(GTK_BOX(box), list);
  GtkWidget *bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_box_append(GTK_BOX(bar), gtk_label_new("Big Buck Bunny"));
  gtk_box_append(GTK_BOX(bar), gtk_button_new_from_icon_name("media-playback-start-symbolic"));
  gtk_box_append(GTK_BOX(box), bar);
  adw_application_window_set_content(ADW_APPLICATION_WINDOW(win), box);
  g_signal_connect(win, "map", G_CALLBACK(on_map), app);
  gtk_window_present(GTK_WINDOW(win));
}

int main(int argc, char **argv) {
  AdwApplication *app = adw_application_new("io.github.castdeck.Baseline", G_APPLICATION_NON_UNIQUE);
  g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
  int status = g_application_run(G_APPLICATION(app), argc, argv);
  g_object_unref(app);
  return status;
}
