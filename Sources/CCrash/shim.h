#ifndef GPSTRACK_CCRASH_SHIM_H
#define GPSTRACK_CCRASH_SHIM_H
/* A last word on a fatal signal: the crashing thread's backtrace on stderr (the journal under
 * systemd), then the signal's default action (the process ends, systemd restarts it). The
 * Swift runtime's own backtracer cannot run under MemoryDenyWriteExecute=yes: it spawns a helper
 * that needs an executable stack. This handler only calls async-signal-safe functions; glibc's
 * backtrace() is primed once at install time so that it does not load libgcc in the handler. */
#include <execinfo.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *gpstrack_crash_prefix = "";

static inline void gpstrack_crash_write(const char *s) {
    size_t n = strlen(s);
    while (n > 0) {
        ssize_t w = write(STDERR_FILENO, s, n);
        if (w <= 0) return;
        s += w;
        n -= (size_t)w;
    }
}

static inline void gpstrack_crash_handler(int sig, siginfo_t *info, void *context) {
    (void)info;
    (void)context;
    void *frames[64];
    int count = backtrace(frames, 64);
    char number[16];
    int i = (int)sizeof number - 1;
    number[i] = 0;
    int v = sig;
    do { number[--i] = (char)('0' + v % 10); v /= 10; } while (v > 0 && i > 0);
    gpstrack_crash_write(gpstrack_crash_prefix);
    gpstrack_crash_write("gpstrackd: fatal signal ");
    gpstrack_crash_write(number + i);
    gpstrack_crash_write(" (");
    const char *name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGILL ? "SIGILL"
        : sig == SIGFPE ? "SIGFPE" : sig == SIGABRT ? "SIGABRT" : sig == SIGTRAP ? "SIGTRAP" : "?";
    gpstrack_crash_write(name);
    gpstrack_crash_write("); backtrace of the crashing thread:\n");
    /* One line per frame, each with the priority prefix (backtrace_symbols would allocate). */
    for (int f = 0; f < count; f++) {
        gpstrack_crash_write(gpstrack_crash_prefix);
        gpstrack_crash_write("gpstrackd: backtrace: ");
        backtrace_symbols_fd(&frames[f], 1, STDERR_FILENO);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/// Installs the handler for SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT and SIGTRAP.
/// `journal` non-zero prefixes lines with <2> (critical) for systemd's stderr stream.
static inline void gpstrack_install_crash_handler(int journal) {
    void *prime[1];
    (void)backtrace(prime, 1);
    gpstrack_crash_prefix = journal ? "<2>" : "";
    int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
    for (size_t k = 0; k < sizeof signals / sizeof signals[0]; k++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = gpstrack_crash_handler;
        action.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
        sigemptyset(&action.sa_mask);
        sigaction(signals[k], &action, NULL);
    }
}
#endif
