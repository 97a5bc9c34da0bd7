#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

/// How many times malloc, calloc or realloc was called in this process so far
/// (every thread). The executable that links this target (the benchmarks, the
/// test binary) defines those three functions itself, counting each call and
/// handing it to glibc's own (__libc_malloc, __libc_calloc, __libc_realloc);
/// the Swift runtime's allocations go through them. Read it before and after
/// the work: the difference is the work's allocations, freed or not (mallinfo2
/// would only show those still held).
unsigned long allocation_counter_calls(void);

/// The same count for the calling thread alone: what a test reads around work
/// it does on its own thread while other tests allocate on theirs.
unsigned long allocation_counter_thread_calls(void);

#endif
