#ifndef SECRETFIELD_PIPEWIRE_REGISTRY_H
#define SECRETFIELD_PIPEWIRE_REGISTRY_H

/*
 * A reader of PipeWire's registry, with libpipewire loaded at run time
 * (dlopen), so that nothing needs PipeWire to build or to start: where the
 * library is missing, secretfield_pipewire_load says so and the caller goes
 * on without it. Only ScreenRecording imports this module; no PipeWire type
 * appears here.
 *
 * One client has its own loop and context, made with no configuration file
 * (config.name=null: no module of the user's client.conf is loaded into the
 * process) and the native protocol alone. Its events are dispatched only
 * inside secretfield_pipewire_dispatch, on the calling thread; the context's
 * data-loop thread, which libpipewire starts, stays idle, since this client
 * makes no node.
 */
#include <stddef.h>
#include <stdint.h>

/* One property of a global, as the registry announced it. */
typedef struct secretfield_pipewire_property {
  const char *key;
  const char *value;
} secretfield_pipewire_property;

/*
 * Where the registry's announcements go. Both are called from inside
 * secretfield_pipewire_dispatch; the strings are valid for the call only.
 */
typedef struct secretfield_pipewire_events {
  /* A global appeared: its id, its type ("PipeWire:Interface:Node"), and the
   * properties the daemon shows every client. */
  void (*global)(void *context, uint32_t id, const char *type,
                 const secretfield_pipewire_property *properties, uint32_t count);
  /* A global went away. */
  void (*global_removed)(void *context, uint32_t id);
} secretfield_pipewire_events;

typedef struct secretfield_pipewire_client secretfield_pipewire_client;

/*
 * Loads `library` (libpipewire-0.3.so.0) and initialises it the first time
 * it loads; later calls only check that `library` is the one loaded. 0, or
 * -1 with the reason in `message` (at most `capacity` bytes, NUL-terminated).
 */
int secretfield_pipewire_load(const char *library, char *message, size_t capacity);

/*
 * A client that reports to `events` with `context`, not connected yet. NULL,
 * with errno set, when the loop or the context cannot be made. Needs a
 * successful secretfield_pipewire_load.
 */
secretfield_pipewire_client *secretfield_pipewire_client_new(
    const secretfield_pipewire_events *events, void *context);

/*
 * Connects to the daemon PIPEWIRE_REMOTE names, or else `remote` (a socket's
 * path, or a name in PIPEWIRE_RUNTIME_DIR or XDG_RUNTIME_DIR; NULL:
 * pipewire-0), asks for the registry and for a roundtrip after it. 0, or a
 * negative errno (-EHOSTDOWN: no daemon there).
 */
int secretfield_pipewire_connect(secretfield_pipewire_client *client, const char *remote);

/*
 * Dispatches what the daemon sent, waiting up to `timeout_ms` for something
 * to arrive (0: not at all). 1 once every global that existed at connect
 * time has been announced (the roundtrip is done), 0 before, or a negative
 * errno once the connection broke (the client must connect again).
 */
int secretfield_pipewire_dispatch(secretfield_pipewire_client *client, int timeout_ms);

/* Ends the connection, if any; the client may connect again. */
void secretfield_pipewire_disconnect(secretfield_pipewire_client *client);

/* Disconnects and frees the client, its context and its loop. */
void secretfield_pipewire_client_free(secretfield_pipewire_client *client);

#endif
