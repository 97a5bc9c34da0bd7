// Counts the benchmark executable's allocations: this file defines malloc,
// calloc and realloc, which the executable exports, so every shared library of
// the process (the Swift runtime included) calls these. No allocation and no
// lock here: a relaxed atomic add, then glibc's own allocator.
#include "AllocationCounter.h"

#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);

static unsigned long calls;

void *malloc(size_t size) {
  __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
  return __libc_realloc(pointer, size);
}

unsigned long allocation_counter_calls(void) {
  return __atomic_load_n(&calls, __ATOMIC_RELAXED);
}
