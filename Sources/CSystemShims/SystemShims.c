#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "SystemShims.h"

int secretfield_pipe2(int ends[2], int flags) { return pipe2(ends, flags); }

int secretfield_open_node(int directory, const char *name) {
  return openat(directory, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
}

/* glibc's checked read, what _FORTIFY_SOURCE makes of read(2) when it knows
   the buffer's size (declared by <bits/unistd.h> only in a fortified,
   optimised build). */
extern ssize_t __read_chk(int descriptor, void *buffer, size_t count, size_t buffer_size);

long secretfield_read_available(int descriptor, unsigned char *into, size_t capacity,
                                size_t count) {
  /* Straight into the caller's buffer, with the caller's capacity as the
     buffer's size: the compiler cannot know it, so the check is made as
     _FORTIFY_SOURCE makes it, and a count past the capacity aborts ("buffer
     overflow detected") instead of writing past the buffer. */
  for (;;) {
    ssize_t got = __read_chk(descriptor, into, count, capacity);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
    return (long)got;
  }
}

/* What secretfield_binds_immediately looks for, and what it found. */
struct secretfield_binding_query {
  const void *address;
  int found;
  int binds_now;
};

static int secretfield_binding_of_object(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  struct secretfield_binding_query *query = data;
  uintptr_t address = (uintptr_t)query->address;
  const ElfW(Phdr) *dynamic = NULL;
  int holds = 0;
  for (ElfW(Half) index = 0; index < info->dlpi_phnum; index++) {
    const ElfW(Phdr) *header = &info->dlpi_phdr[index];
    uintptr_t start = info->dlpi_addr + header->p_vaddr;
    if (header->p_type == PT_LOAD && address >= start && address < start + header->p_memsz)
      holds = 1;
    if (header->p_type == PT_DYNAMIC) dynamic = header;
  }
  if (!holds) return 0;
  query->found = 1;
  /* No dynamic section: nothing is bound at run time at all. */
  if (dynamic == NULL) {
    query->binds_now = 1;
    return 1;
  }
  for (const ElfW(Dyn) *entry = (const ElfW(Dyn) *)(info->dlpi_addr + dynamic->p_vaddr);
       entry->d_tag != DT_NULL; entry++) {
    if (entry->d_tag == DT_BIND_NOW) query->binds_now = 1;
    if (entry->d_tag == DT_FLAGS && (entry->d_un.d_val & DF_BIND_NOW)) query->binds_now = 1;
    if (entry->d_tag == DT_FLAGS_1 && (entry->d_un.d_val & DF_1_NOW)) query->binds_now = 1;
  }
  return 1;
}

int secretfield_binds_immediately(const void *address) {
  const char *environment = getenv("LD_BIND_NOW");
  if (environment != NULL && environment[0] != '\0') return 1;
  struct secretfield_binding_query query = {address, 0, 0};
  dl_iterate_phdr(secretfield_binding_of_object, &query);
  return query.found && query.binds_now;
}
