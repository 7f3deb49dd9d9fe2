#ifndef GPSTRACK_CSYSTEMD_SHIM_H
#define GPSTRACK_CSYSTEMD_SHIM_H
/* libsystemd: the journal's native protocol (sd_journal_sendv) and sd_notify. The location
 * macros would wrap sd_journal_sendv in a function-like macro Swift cannot call. */
#define SD_JOURNAL_SUPPRESS_LOCATION 1
#include <sys/uio.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#endif
