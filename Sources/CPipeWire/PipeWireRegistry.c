#include "PipeWireRegistry.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

/*
 * The part of libpipewire's ABI this reader uses, declared here so that the
 * build needs no PipeWire headers. These are the layouts of PipeWire 0.3
 * (spa/utils/hook.h, spa/utils/dict.h, spa/support/loop.h, pipewire/loop.h,
 * pipewire/core.h), which the 1.x releases keep: a methods or events table
 * only grows at its end, and its `version` says which members it has, so a
 * prefix of it is enough. The names are ours, to keep them apart from the
 * real headers.
 */
struct abi_list {
  struct abi_list *next;
  struct abi_list *prev;
};

struct abi_callbacks {
  const void *funcs;
  void *data;
};

/* spa_interface: what every proxy and loop control begins with. */
struct abi_interface {
  const char *type;
  uint32_t version;
  struct abi_callbacks cb;
};

struct abi_hook {
  struct abi_list link;
  struct abi_callbacks cb;
  void (*removed)(struct abi_hook *hook);
  void *priv;
};

struct abi_dict {
  uint32_t flags;
  uint32_t n_items;
  const secretfield_pipewire_property *items; /* spa_dict_item: key, value */
};

/* pw_loop: four interfaces (1.x adds a name after them). */
struct abi_loop {
  void *system;
  void *loop;
  struct abi_interface *control;
  void *utils;
};

struct abi_loop_control_methods {
  uint32_t version;
  int (*get_fd)(void *object);
  void (*add_hook)(void *object, struct abi_hook *hook, const void *hooks, void *data);
  void (*enter)(void *object);
  void (*leave)(void *object);
  int (*iterate)(void *object, int timeout);
};

struct abi_core_events {
  uint32_t version;
  void (*info)(void *data, const void *info);
  void (*done)(void *data, uint32_t id, int seq);
  void (*ping)(void *data, uint32_t id, int seq);
  void (*error)(void *data, uint32_t id, int seq, int res, const char *message);
  void (*remove_id)(void *data, uint32_t id);
  void (*bound_id)(void *data, uint32_t id, uint32_t global_id);
  void (*add_mem)(void *data, uint32_t id, uint32_t type, int fd, uint32_t flags);
  void (*remove_mem)(void *data, uint32_t id);
};

struct abi_core_methods {
  uint32_t version;
  int (*add_listener)(void *object, struct abi_hook *listener,
                      const struct abi_core_events *events, void *data);
  int (*hello)(void *object, uint32_t version);
  int (*sync)(void *object, uint32_t id, int seq);
  int (*pong)(void *object, uint32_t id, int seq);
  int (*error)(void *object, uint32_t id, int seq, int res, const char *message);
  void *(*get_registry)(void *object, uint32_t version, size_t user_data_size);
};

struct abi_registry_events {
  uint32_t version;
  void (*global)(void *data, uint32_t id, uint32_t permissions, const char *type,
                 uint32_t version, const struct abi_dict *props);
  void (*global_remove)(void *data, uint32_t id);
};

struct abi_registry_methods {
  uint32_t version;
  int (*add_listener)(void *object, struct abi_hook *listener,
                      const struct abi_registry_events *events, void *data);
};

/* PW_ID_CORE, PW_VERSION_REGISTRY. */
enum { core_id = 0, registry_version = 3 };

_Static_assert(sizeof(secretfield_pipewire_property) == 2 * sizeof(const char *),
               "a property is spa_dict_item: two string pointers");

/* The functions of libpipewire the reader calls, found once by dlsym. */
static struct {
  void (*init)(int *argc, char ***argv);
  void (*log_set_level)(int level);
  struct abi_loop *(*loop_new)(const void *props);
  void (*loop_destroy)(struct abi_loop *loop);
  void *(*properties_new)(const char *key, ...);
  void *(*properties_new_string)(const char *text);
  void *(*context_new)(struct abi_loop *loop, void *props, size_t user_data_size);
  void (*context_destroy)(void *context);
  void *(*context_load_module)(void *context, const char *name, const char *args, void *props);
  struct abi_interface *(*context_connect)(void *context, void *props, size_t user_data_size);
  int (*core_disconnect)(struct abi_interface *core);
  void (*proxy_destroy)(struct abi_interface *proxy);
} pw;

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
/* The library the functions above come from, once one was loaded. */
static void *loaded_library;

/* Finds `name` in `library` and stores it in `*slot`; 0 when it is missing. */
static int find_symbol(void *library, const char *name, void *slot, char *message,
                       size_t capacity) {
  void *symbol = dlsym(library, name);
  if (symbol == NULL) {
    snprintf(message, capacity, "libpipewire has no %s", name);
    return 0;
  }
  memcpy(slot, &symbol, sizeof symbol);
  return 1;
}

/* Fills `pw` from `library` and initialises it; 0, or -1 with the reason. */
static int bind_library(void *library, char *message, size_t capacity) {
#define FIND(field, name) find_symbol(library, name, &pw.field, message, capacity)
  if (!FIND(init, "pw_init") || !FIND(log_set_level, "pw_log_set_level") ||
      !FIND(loop_new, "pw_loop_new") || !FIND(loop_destroy, "pw_loop_destroy") ||
      !FIND(properties_new, "pw_properties_new") ||
      !FIND(properties_new_string, "pw_properties_new_string") ||
      !FIND(context_new, "pw_context_new") || !FIND(context_destroy, "pw_context_destroy") ||
      !FIND(context_load_module, "pw_context_load_module") ||
      !FIND(context_connect, "pw_context_connect") ||
      !FIND(core_disconnect, "pw_core_disconnect") || !FIND(proxy_destroy, "pw_proxy_destroy")) {
    memset(&pw, 0, sizeof pw);
    return -1;
  }
#undef FIND
  /* pw_init's logger makes standard error line-buffered (setlinebuf), where
   * it is unbuffered: the process's own messages could then wait in a buffer,
   * and be lost at an _exit. It is put back as it was. */
  int line_buffered = __flbf(stderr);
  pw.init(NULL, NULL);
  if (!line_buffered && __flbf(stderr)) {
    fflush(stderr);
    setvbuf(stderr, NULL, _IONBF, 0);
  }
  /* The library logs to standard error, which is the caller's (ssh's, gpg's);
   * a missing daemon is an answer here, not an error to print. PIPEWIRE_DEBUG
   * still turns its log on. */
  if (getenv("PIPEWIRE_DEBUG") == NULL) pw.log_set_level(0);
  return 0;
}

int secretfield_pipewire_load(const char *library, char *message, size_t capacity) {
  pthread_mutex_lock(&load_lock);
  int result = 0;
  void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    const char *reason = dlerror();
    snprintf(message, capacity, "%s", reason ? reason : library);
    result = -1;
  } else if (loaded_library == NULL) {
    if (bind_library(handle, message, capacity) == 0) {
      loaded_library = handle;
    } else {
      dlclose(handle);
      result = -1;
    }
  } else {
    /* Loaded before: dlopen only counted one more reference to it. */
    if (handle != loaded_library) {
      snprintf(message, capacity, "another libpipewire is loaded already");
      result = -1;
    }
    dlclose(handle);
  }
  pthread_mutex_unlock(&load_lock);
  return result;
}

struct secretfield_pipewire_client {
  struct abi_loop *loop;
  void *context;
  struct abi_interface *core;
  struct abi_interface *registry;
  struct abi_hook core_listener;
  struct abi_hook registry_listener;
  struct abi_core_events core_events;
  struct abi_registry_events registry_events;
  secretfield_pipewire_events events;
  void *events_context;
  int sync_seq;
  int synced;
  int broken; /* a negative errno once the core reported its connection lost */
};

static void on_core_done(void *data, uint32_t id, int seq) {
  secretfield_pipewire_client *client = data;
  if (id == core_id && seq == client->sync_seq) client->synced = 1;
}

static void on_core_error(void *data, uint32_t id, int seq, int res, const char *message) {
  (void)seq;
  (void)message;
  secretfield_pipewire_client *client = data;
  /* An error on the core itself is fatal to the connection (EPIPE when the
   * daemon went away); one on another object is not ours to handle. */
  if (id == core_id) client->broken = res < 0 ? res : -EPIPE;
}

static void on_global(void *data, uint32_t id, uint32_t permissions, const char *type,
                      uint32_t version, const struct abi_dict *props) {
  (void)permissions;
  (void)version;
  secretfield_pipewire_client *client = data;
  if (client->events.global == NULL) return;
  client->events.global(client->events_context, id, type ? type : "",
                        props ? props->items : NULL, props ? props->n_items : 0);
}

static void on_global_remove(void *data, uint32_t id) {
  secretfield_pipewire_client *client = data;
  if (client->events.global_removed) client->events.global_removed(client->events_context, id);
}

/* spa_hook_remove: out of its list, if it is in one. */
static void remove_hook(struct abi_hook *hook) {
  if (hook->link.prev != NULL) {
    hook->link.prev->next = hook->link.next;
    hook->link.next->prev = hook->link.prev;
    hook->link.next = hook->link.prev = NULL;
  }
  if (hook->removed) hook->removed(hook);
}

/* Frees what client_new made of `client`, keeping errno. */
static void free_unconnected(secretfield_pipewire_client *client) {
  int saved = errno ? errno : ENOMEM;
  if (client->context) pw.context_destroy(client->context);
  if (client->loop) pw.loop_destroy(client->loop);
  free(client);
  errno = saved;
}

secretfield_pipewire_client *secretfield_pipewire_client_new(
    const secretfield_pipewire_events *events, void *context) {
  if (pw.init == NULL) {
    errno = ENOSYS;
    return NULL;
  }
  secretfield_pipewire_client *client = calloc(1, sizeof *client);
  if (client == NULL) return NULL;
  client->events = *events;
  client->events_context = context;
  client->core_events.version = 0;
  client->core_events.done = on_core_done;
  client->core_events.error = on_core_error;
  client->registry_events.version = 0;
  client->registry_events.global = on_global;
  client->registry_events.global_remove = on_global_remove;
  client->loop = pw.loop_new(NULL);
  if (client->loop == NULL) {
    free_unconnected(client);
    return NULL;
  }
  /* No configuration file: nothing from ~/.config/pipewire is loaded into
   * this process, only the protocol. */
  void *properties = pw.properties_new_string("config.name=null log.level=0");
  client->context = pw.context_new(client->loop, properties, 0);
  if (client->context == NULL ||
      pw.context_load_module(client->context, "libpipewire-module-protocol-native", NULL,
                             NULL) == NULL) {
    free_unconnected(client);
    return NULL;
  }
  return client;
}

int secretfield_pipewire_connect(secretfield_pipewire_client *client, const char *remote) {
  secretfield_pipewire_disconnect(client);
  errno = 0;
  void *properties = remote ? pw.properties_new("remote.name", remote, NULL) : NULL;
  struct abi_interface *core = pw.context_connect(client->context, properties, 0);
  if (core == NULL) return errno ? -errno : -ECONNREFUSED;
  client->core = core;
  const struct abi_core_methods *core_methods = core->cb.funcs;
  memset(&client->core_listener, 0, sizeof client->core_listener);
  core_methods->add_listener(core->cb.data, &client->core_listener, &client->core_events, client);
  client->registry = core_methods->get_registry(core->cb.data, registry_version, 0);
  if (client->registry == NULL) {
    int saved = errno ? -errno : -ENOMEM;
    secretfield_pipewire_disconnect(client);
    return saved;
  }
  const struct abi_registry_methods *registry_methods = client->registry->cb.funcs;
  memset(&client->registry_listener, 0, sizeof client->registry_listener);
  registry_methods->add_listener(client->registry->cb.data, &client->registry_listener,
                                 &client->registry_events, client);
  client->sync_seq = core_methods->sync(core->cb.data, core_id, 0);
  return 0;
}

int secretfield_pipewire_dispatch(secretfield_pipewire_client *client, int timeout_ms) {
  if (client->core == NULL) return -ENOTCONN;
  if (client->broken == 0) {
    const struct abi_loop_control_methods *control = client->loop->control->cb.funcs;
    void *object = client->loop->control->cb.data;
    control->enter(object);
    int result = control->iterate(object, timeout_ms);
    control->leave(object);
    if (result < 0 && result != -EINTR && client->broken == 0) client->broken = result;
  }
  return client->broken ? client->broken : client->synced;
}

void secretfield_pipewire_disconnect(secretfield_pipewire_client *client) {
  if (client->registry) {
    remove_hook(&client->registry_listener);
    pw.proxy_destroy(client->registry);
    client->registry = NULL;
  }
  if (client->core) {
    remove_hook(&client->core_listener);
    pw.core_disconnect(client->core);
    client->core = NULL;
  }
  client->synced = 0;
  client->broken = 0;
  client->sync_seq = 0;
}

void secretfield_pipewire_client_free(secretfield_pipewire_client *client) {
  if (client == NULL) return;
  secretfield_pipewire_disconnect(client);
  pw.context_destroy(client->context);
  pw.loop_destroy(client->loop);
  free(client);
}
