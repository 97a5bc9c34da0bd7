#ifndef SECRETFIELD_CGTK_H
#define SECRETFIELD_CGTK_H

/* GTK 4 as the system installs it (Debian's libgtk-4-dev), with its X11
   backend and XInput 2 for the keyboard grab. Only the window front end
   imports it. */

/* Graphene (under gtk.h) includes <xmmintrin.h> on x86-64. Clang's module of
   it includes <stdlib.h> without <limits.h> first, so with -D_FORTIFY_SOURCE=2,
   as Scripts/package builds, glibc's inline realpath has another body there
   than in the Glibc module, and the module fails ("'realpath' has different
   definitions in different modules"). Graphene's scalar declarations need no
   intrinsics. They give its vector and matrix types (graphene_vec4_t,
   graphene_matrix_t) another alignment than the library's: none of them may
   be passed to GTK from here. The window draws with cairo and uses none;
   graphene_point_t, _size_t and _rect_t are plain floats either way. */
#if defined(__x86_64__) && !defined(GRAPHENE_SIMD_BENCHMARK)
#define GRAPHENE_SIMD_BENCHMARK 1
#define GRAPHENE_HAS_SCALAR 1
#endif
#include <gtk/gtk.h>
/* g_unix_fd_add_full: the pinentry's dialog ends when its client goes. */
#include <glib-unix.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#include <X11/extensions/XInput2.h>
#endif

#endif
