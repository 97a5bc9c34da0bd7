// Counts the allocations of the executable that links it (the benchmarks, the
// test binary): this file defines malloc, calloc and realloc, which the
// executable exports, so every shared library of the process (the Swift
// runtime included) calls these. No allocation and no lock here: a relaxed
// atomic add and a thread-local add (static TLS of the executable, no
// __tls_get_addr), then glibc's own allocator.
#include "AllocationCounter.h"

#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);

static unsigned long calls;
static __thread unsigned long thread_calls;

static inline void count_call(void) {
  __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
  thread_calls += 1;
}

void *malloc(size_t size) {
  count_call();
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  count_call();
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  count_call();
  return __libc_realloc(pointer, size);
}

unsigned long allocation_counter_calls(void) {
  return __atomic_load_n(&calls, __ATOMIC_RELAXED);
}

unsigned long allocation_counter_thread_calls(void) { return thread_calls; }
