#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "SystemShims.h"

int secretfield_pipe2(int ends[2], int flags) { return pipe2(ends, flags); }

int secretfield_open_node(int directory, const char *name) {
  return openat(directory, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
}

long secretfield_read_available(int descriptor, unsigned char *into, size_t capacity,
                                size_t count) {
  /* A buffer whose size the compiler knows, so that _FORTIFY_SOURCE checks
     the read against it; copied out after. */
  unsigned char bytes[64];
  size_t wanted = count < capacity ? count : capacity;
  if (wanted > sizeof bytes) wanted = sizeof bytes;
  for (;;) {
    ssize_t got = read(descriptor, bytes, wanted);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
    if (got > 0) memcpy(into, bytes, (size_t)got);
    return (long)got;
  }
}
