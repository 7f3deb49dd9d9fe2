/* A measuring tool for `make bench`, not a fake: preloaded (LD_PRELOAD) into a process, it counts
 * the heap allocations glibc serves (malloc, calloc, realloc, the aligned ones) and the bytes
 * asked for, and writes both to the file named by MALLOC_COUNT_OUT when the process exits.
 * The calls go on to glibc's own allocator (__libc_*), so nothing else changes. Built by
 * scripts/bench-alloc.sh with gcc -shared -fPIC. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static atomic_ulong calls;
static atomic_ulong bytes;

static inline void note(size_t n) {
    atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&bytes, n, memory_order_relaxed);
}

void *malloc(size_t n) { note(n); return __libc_malloc(n); }
void *calloc(size_t k, size_t n) { note(k * n); return __libc_calloc(k, n); }
void *realloc(void *p, size_t n) { note(n); return __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t a, size_t n) { note(n); return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { note(n); return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
    note(n);
    void *p = __libc_memalign(a, n);
    if (p == NULL) return 12; /* ENOMEM */
    *out = p;
    return 0;
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("MALLOC_COUNT_OUT");
    if (path == NULL) return;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0) return;
    char line[96];
    int n = snprintf(line, sizeof line, "%lu %lu\n", (unsigned long)atomic_load(&calls),
                     (unsigned long)atomic_load(&bytes));
    if (n > 0) (void)!write(fd, line, (size_t)n);
    close(fd);
}
