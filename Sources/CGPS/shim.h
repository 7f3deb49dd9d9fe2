#ifndef GPSTRACK_CGPS_SHIM_H
#define GPSTRACK_CGPS_SHIM_H
/* libgps (gpsd's client library). Debian 12 ships gpsd 3.22: API major 11. */
#include <gps.h>

#if GPSD_API_MAJOR_VERSION < 9
#error "gpstrackd needs libgps with GPSD_API_MAJOR_VERSION >= 9 (timespec fix times)"
#endif

/* Exported by libgps but not declared in gps.h: one step of gps_unpack's loop, which decodes
 * the object at buf and sets *end past it, returning 0, -1 (no class it knows) or a positive
 * JSON_ERR_* status. gps_unpack repeats it while *end is not at the end of the string and
 * stops only on -1: after a positive status *end has not moved, and it loops for ever. */
extern int libgps_json_unpack(const char *buf, struct gps_data_t *gpsdata, const char **end);
/* The text of a JSON_ERR_* status (libgps's json.c). */
extern const char *json_error_string(int err);

/* Pointer to the fix inside gps_data_t, so Swift never copies the ~24 KB struct. */
static inline const struct gps_fix_t *gpstrack_fix(const struct gps_data_t *data) {
    return &data->fix;
}

/* A timespec as seconds since the Unix epoch: one conversion for both TPV readers. */
static inline double gpstrack_seconds(timespec_t t) {
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Fix time as seconds since the Unix epoch (API >= 9 keeps a timespec). */
static inline double gpstrack_fix_time(const struct gps_data_t *data) {
    return gpstrack_seconds(data->fix.time);
}

/* Path of the device a DEVICE report named. */
static inline const char *gpstrack_device_path(const struct gps_data_t *data) {
    return data->dev.path;
}

/* What a SKY report left: satellites used and in view, and the DOPs (NaN when absent). */
static inline int gpstrack_satellites_used(const struct gps_data_t *data) {
    return data->satellites_used;
}

static inline int gpstrack_satellites_visible(const struct gps_data_t *data) {
    return data->satellites_visible;
}

static inline const struct dop_t *gpstrack_dop(const struct gps_data_t *data) {
    return &data->dop;
}

static inline unsigned long long gpstrack_set(const struct gps_data_t *data) {
    return (unsigned long long)data->set;
}

static inline void gpstrack_clear_set(struct gps_data_t *data) {
    data->set = 0;
}

/* Mask values as plain constants: the gps.h macros are 1llu<<n expressions. */
static const unsigned long long GPSTRACK_TIME_SET = TIME_SET;
static const unsigned long long GPSTRACK_LATLON_SET = LATLON_SET;
static const unsigned long long GPSTRACK_MODE_SET = MODE_SET;
static const unsigned long long GPSTRACK_HERR_SET = HERR_SET;
static const unsigned long long GPSTRACK_SPEED_SET = SPEED_SET;
static const unsigned long long GPSTRACK_TRACK_SET = TRACK_SET;
static const unsigned long long GPSTRACK_SATELLITE_SET = SATELLITE_SET;

#endif
