#ifndef SECRETFIELD_CGTK_H
#define SECRETFIELD_CGTK_H

/* GTK 4 as the system installs it (Debian's libgtk-4-dev), with its X11
   backend and XInput 2 for the keyboard grab. Only the window front end
   imports it. */
#include <gtk/gtk.h>
/* g_unix_fd_add_full: the pinentry's dialog ends when its client goes. */
#include <glib-unix.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#include <X11/extensions/XInput2.h>
#endif

#endif
