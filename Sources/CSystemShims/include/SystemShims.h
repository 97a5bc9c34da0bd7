#ifndef SECRETFIELD_SYSTEM_SHIMS_H
#define SECRETFIELD_SYSTEM_SHIMS_H

/*
 * What Swift cannot call directly: an instruction it cannot emit (rep movsb,
 * repne scasb) and system calls that glibc offers only as variadic functions
 * (syscall, prctl) or declares only under _GNU_SOURCE (pipe2). Every wrapper
 * passes each argument in the width the kernel reads.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/keyctl.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <fcntl.h>

/*
 * Copies n bytes from src to dst (the ranges may overlap) without passing them
 * through vector registers.
 *
 * glibc's memcpy and memmove move data through the SIMD registers and leave it
 * there. Whatever later saves the register file to memory (the dynamic linker's
 * lazy-binding resolver, a signal frame) then writes those bytes onto the stack,
 * where a secret outlives the buffer it was copied between. `rep movsb` moves the
 * bytes inside the CPU's string engine and leaves no architectural register
 * holding them. Swift cannot emit that instruction, hence this shim.
 */
static inline void secretfield_move_bytes(void *dst, const void *src, size_t n) {
#if defined(__x86_64__)
  if ((uintptr_t)dst - (uintptr_t)src >= n) {
    /* dst is before src, or past its end: copy forwards. */
    __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
  } else if (n > 0) {
    /*
     * dst overlaps the end of src: copy backwards with the direction flag set.
     * A backward string copy gets none of the fast-string engine's speed-up, so
     * `std; rep movsb` runs about a byte a cycle (2.6 us for the 2 KiB tail of
     * a keystroke in the middle of 4,096 characters); the bulk goes eight bytes
     * a step with `rep movsq` (0.47 us), still inside the string engine, and
     * the first n % 8 bytes after it. Each step reads below what the steps
     * before it wrote, so the overlap is safe at every shift.
     */
    size_t words = n / 8, rest = n % 8;
    if (words > 0) {
      unsigned char *d = (unsigned char *)dst + n - 8;
      const unsigned char *s = (const unsigned char *)src + n - 8;
      __asm__ volatile("std\n\trep movsq\n\tcld" : "+D"(d), "+S"(s), "+c"(words) : : "memory", "cc");
    }
    if (rest > 0) {
      unsigned char *d = (unsigned char *)dst + rest - 1;
      const unsigned char *s = (const unsigned char *)src + rest - 1;
      __asm__ volatile("std\n\trep movsb\n\tcld" : "+D"(d), "+S"(s), "+c"(rest) : : "memory", "cc");
    }
  }
#else
  memmove(dst, src, n);
#endif
}

/*
 * prctl(2) is variadic, and Swift does not import variadic C functions: these
 * two pass the option's arguments with the types the kernel reads.
 */
static inline int secretfield_set_dumpable(int dumpable) {
  return prctl(PR_SET_DUMPABLE, (unsigned long)dumpable, 0UL, 0UL, 0UL);
}

static inline int secretfield_get_dumpable(void) {
  return prctl(PR_GET_DUMPABLE, 0UL, 0UL, 0UL, 0UL);
}

/*
 * The kernel key retention service, called without libkeyutils: syscall(2)
 * is variadic as well, so these pass each argument in the width the kernel
 * reads (add_key(2), keyctl(2)).
 */
static inline long secretfield_add_key(const char *type, const char *description,
                                       const void *payload, size_t length, long keyring) {
  return syscall(SYS_add_key, type, description, payload, length, keyring);
}

static inline long secretfield_keyctl(int operation, unsigned long arg2, unsigned long arg3,
                                      unsigned long arg4, unsigned long arg5) {
  return syscall(SYS_keyctl, operation, arg2, arg3, arg4, arg5);
}

/*
 * The offset of the first `byte` in the n bytes at start, or n when there is
 * none. `repne scasb` compares inside the string engine, as `rep movsb` copies:
 * no register is left holding the secret bytes it passed over (memchr loads
 * them into vector registers).
 */
static inline size_t secretfield_find_byte(const void *start, size_t n, unsigned char byte) {
  if (n == 0) return 0;
#if defined(__x86_64__)
  const unsigned char *next = (const unsigned char *)start;
  size_t left = n;
  unsigned char found;
  __asm__ volatile("repne scasb\n\tsete %2"
                   : "+D"(next), "+c"(left), "=q"(found)
                   : "a"(byte)
                   : "memory", "cc");
  return found ? (size_t)(next - (const unsigned char *)start) - 1 : n;
#else
  const unsigned char *hit = (const unsigned char *)memchr(start, byte, n);
  return hit ? (size_t)(hit - (const unsigned char *)start) : n;
#endif
}

/*
 * memfd_secret(2) has no glibc wrapper, and syscall(2) is variadic. The kernel
 * accepts O_CLOEXEC as its only flag (the man page's FD_CLOEXEC is refused with
 * EINVAL). Returns the descriptor, or -1 with errno set (ENOSYS where the kernel
 * lacks the call or was booted without secretmem.enable).
 */
static inline int secretfield_memfd_secret(unsigned int flags) {
#if defined(SYS_memfd_secret)
  return (int)syscall(SYS_memfd_secret, flags);
#elif defined(__x86_64__)
  return (int)syscall(447, flags);
#else
  (void)flags;
  errno = ENOSYS;
  return -1;
#endif
}

/*
 * keyctl(KEYCTL_GET_KEYRING_ID, id, create) through syscall(2): the keyring's
 * serial number, or -1 with errno set. Only asks; creates nothing when create is 0.
 */
static inline long secretfield_keyctl_get_keyring_id(int32_t id, int create) {
  return syscall(SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, id, create);
}

/*
 * process_vm_readv(2) of one byte of this process, through syscall(2): glibc
 * declares the wrapper only under _GNU_SOURCE. Returns the bytes read, or -1
 * with errno set (EFAULT where the kernel cannot reach the page).
 */
static inline long secretfield_read_own_byte(const void *address, unsigned char *into) {
  struct { void *base; size_t length; } local = { into, 1 }, remote = { (void *)address, 1 };
  return syscall(SYS_process_vm_readv, (long)getpid(), &local, 1UL, &remote, 1UL, 0UL);
}

/*
 * pipe2(2): glibc declares it only under _GNU_SOURCE, which Swift's Glibc
 * module does not define. Returns 0, or -1 with errno set.
 */
int secretfield_pipe2(int ends[2], int flags);

/*
 * openat(directory, name, O_PATH | O_NOFOLLOW | O_CLOEXEC): a descriptor that
 * names the file (a socket, a link as itself) without opening it for I/O.
 * O_PATH is declared only under _GNU_SOURCE. Returns the descriptor, or -1
 * with errno set.
 */
int secretfield_open_node(int directory, const char *name);

/*
 * rt_sigaction(2) that sets the disposition of `signal` to SIG_IGN through
 * the raw system call: glibc's sigaction refuses the signals it keeps for
 * itself (32 and 33 below SIGRTMIN). Returns 0, or -1 with errno set.
 */
static inline int secretfield_ignore_signal_raw(int signal) {
  struct {
    unsigned long handler, flags, restorer;
    unsigned long long mask;
  } action = {(unsigned long)1 /* SIG_IGN */, 0, 0, 0};
  return (int)syscall(SYS_rt_sigaction, (long)signal, &action, (void *)0, (long)sizeof(action.mask));
}

/*
 * prctl(PR_SET_NO_NEW_PRIVS, 1) then prctl(PR_SET_SECCOMP,
 * SECCOMP_MODE_FILTER, program): installs a classic BPF filter for this
 * thread (and the threads it starts). Returns 0, or -1 with errno set.
 */
static inline int secretfield_install_seccomp_filter(const void *program) {
  if (prctl(38 /* PR_SET_NO_NEW_PRIVS */, 1UL, 0UL, 0UL, 0UL) != 0) return -1;
  return prctl(22 /* PR_SET_SECCOMP */, 2UL /* SECCOMP_MODE_FILTER */, program, 0UL, 0UL);
}

/*
 * Reads what a non-blocking descriptor holds, at most `count` bytes and never
 * more than `capacity`, into `into`: the signal relay's drain of its pipe.
 * Built with _FORTIFY_SOURCE, the read goes through glibc's checked
 * __read_chk, which stops a read past the buffer it was given. Returns the
 * count, 0 at end of file or when nothing is there (EAGAIN), -1 with errno
 * set on another error; retries EINTR.
 */
/* 1 when the loaded object that holds `address` has every symbol bound when
   it was loaded (`-z now`: DT_BIND_NOW, DF_BIND_NOW or DF_1_NOW), has no
   dynamic section, or LD_BIND_NOW is set; 0 when its calls through the PLT
   are bound lazily, on first use, or no loaded object holds `address`. */
int secretfield_binds_immediately(const void *address);

/* Reads at most `count` bytes from a non-blocking descriptor into `into`, a
   buffer of `capacity` bytes, retrying EINTR; 0 for EAGAIN or the end of
   the file, -1 with errno for an error. glibc's checked read (__read_chk)
   aborts the process when `count` exceeds `capacity`. */
long secretfield_read_available(int descriptor, unsigned char *into, size_t capacity, size_t count);

/* The f_type of the file system `descriptor` is on (fstatfs(2)), or -1 with
   errno set: <sys/vfs.h> is not in Swift's Glibc module. */
static inline long secretfield_file_system_type(int descriptor) {
  struct statfs status;
  return fstatfs(descriptor, &status) == 0 ? (long)status.f_type : -1;
}

/* The f_type of the file system `path` is on (statfs(2)), or -1. */
static inline long secretfield_file_system_type_of_path(const char *path) {
  struct statfs status;
  return statfs(path, &status) == 0 ? (long)status.f_type : -1;
}

/* syscall(2) with a number and no argument. */
static inline long secretfield_syscall0(long number) { return syscall(number); }

#endif
