/* libgeos_c through dlopen: see gpstrack_geos.h. The pointers are written once, under a
   mutex, before the first call through them. geos_c.h checks the pointers' types, and each
   wrapper's type against the function it stands for. */
#include "gpstrack_geos.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define GEOS_CALLS(X) \
    X(GEOS_init_r) X(GEOS_finish_r) X(GEOSFree_r) \
    X(GEOSCoordSeq_create_r) X(GEOSCoordSeq_destroy_r) X(GEOSCoordSeq_setXY_r) X(GEOSCoordSeq_getXY_r) \
    X(GEOSGeom_createPointFromXY_r) X(GEOSGeom_createLinearRing_r) X(GEOSGeom_createLineString_r) \
    X(GEOSGeom_createPolygon_r) X(GEOSGeom_createCollection_r) X(GEOSGeom_createRectangle_r) \
    X(GEOSGeom_destroy_r) X(GEOSBoundary_r) X(GEOSUnaryUnion_r) X(GEOSisValid_r) X(GEOSisValidReason_r) \
    X(GEOSPrepare_r) X(GEOSPreparedGeom_destroy_r) X(GEOSPreparedContains_r) \
    X(GEOSPreparedDistanceWithin_r) X(GEOSPreparedNearestPoints_r) \
    X(GEOSSTRtree_create_r) X(GEOSSTRtree_insert_r) X(GEOSSTRtree_query_r) X(GEOSSTRtree_destroy_r)

#define POINTER(name) static __typeof__(&name) p_##name;
GEOS_CALLS(POINTER)
#undef POINTER
#define SAME_TYPE(name) \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&dl_##name), __typeof__(&name)), #name);
GEOS_CALLS(SAME_TYPE)
#undef SAME_TYPE

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int loaded;

int gpstrack_geos_load(char *error, size_t size) {
    pthread_mutex_lock(&load_lock);
    int rc = 0;
    if (!loaded) {
        void *lib = dlopen("libgeos_c.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            snprintf(error, size, "%s", dlerror());
            rc = -1;
        } else {
            const char *missing = NULL;
#define LOAD(name) \
    p_##name = (__typeof__(p_##name))dlsym(lib, #name); \
    if (!p_##name && !missing) missing = #name;
            GEOS_CALLS(LOAD)
#undef LOAD
            if (missing) {
                snprintf(error, size, "libgeos_c.so.1 lacks %s", missing);
                rc = -1;
            } else {
                loaded = 1;
            }
        }
    }
    pthread_mutex_unlock(&load_lock);
    return rc;
}

GEOSContextHandle_t dl_GEOS_init_r(void) { return p_GEOS_init_r(); }
void dl_GEOS_finish_r(GEOSContextHandle_t h) { p_GEOS_finish_r(h); }
void dl_GEOSFree_r(GEOSContextHandle_t h, void *buffer) { p_GEOSFree_r(h, buffer); }

GEOSCoordSequence *dl_GEOSCoordSeq_create_r(GEOSContextHandle_t h, unsigned int size, unsigned int dims) {
    return p_GEOSCoordSeq_create_r(h, size, dims);
}
void dl_GEOSCoordSeq_destroy_r(GEOSContextHandle_t h, GEOSCoordSequence *s) { p_GEOSCoordSeq_destroy_r(h, s); }
int dl_GEOSCoordSeq_setXY_r(GEOSContextHandle_t h, GEOSCoordSequence *s, unsigned int idx, double x, double y) {
    return p_GEOSCoordSeq_setXY_r(h, s, idx, x, y);
}
int dl_GEOSCoordSeq_getXY_r(GEOSContextHandle_t h, const GEOSCoordSequence *s, unsigned int idx, double *x,
                            double *y) {
    return p_GEOSCoordSeq_getXY_r(h, s, idx, x, y);
}

GEOSGeometry *dl_GEOSGeom_createPointFromXY_r(GEOSContextHandle_t h, double x, double y) {
    return p_GEOSGeom_createPointFromXY_r(h, x, y);
}
GEOSGeometry *dl_GEOSGeom_createLinearRing_r(GEOSContextHandle_t h, GEOSCoordSequence *s) {
    return p_GEOSGeom_createLinearRing_r(h, s);
}
GEOSGeometry *dl_GEOSGeom_createLineString_r(GEOSContextHandle_t h, GEOSCoordSequence *s) {
    return p_GEOSGeom_createLineString_r(h, s);
}
GEOSGeometry *dl_GEOSGeom_createPolygon_r(GEOSContextHandle_t h, GEOSGeometry *shell, GEOSGeometry **holes,
                                          unsigned int nholes) {
    return p_GEOSGeom_createPolygon_r(h, shell, holes, nholes);
}
GEOSGeometry *dl_GEOSGeom_createCollection_r(GEOSContextHandle_t h, int type, GEOSGeometry **geoms,
                                             unsigned int ngeoms) {
    return p_GEOSGeom_createCollection_r(h, type, geoms, ngeoms);
}
GEOSGeometry *dl_GEOSGeom_createRectangle_r(GEOSContextHandle_t h, double xmin, double ymin, double xmax,
                                            double ymax) {
    return p_GEOSGeom_createRectangle_r(h, xmin, ymin, xmax, ymax);
}
void dl_GEOSGeom_destroy_r(GEOSContextHandle_t h, GEOSGeometry *g) { p_GEOSGeom_destroy_r(h, g); }

GEOSGeometry *dl_GEOSBoundary_r(GEOSContextHandle_t h, const GEOSGeometry *g) { return p_GEOSBoundary_r(h, g); }
GEOSGeometry *dl_GEOSUnaryUnion_r(GEOSContextHandle_t h, const GEOSGeometry *g) {
    return p_GEOSUnaryUnion_r(h, g);
}
char dl_GEOSisValid_r(GEOSContextHandle_t h, const GEOSGeometry *g) { return p_GEOSisValid_r(h, g); }
char *dl_GEOSisValidReason_r(GEOSContextHandle_t h, const GEOSGeometry *g) {
    return p_GEOSisValidReason_r(h, g);
}

const GEOSPreparedGeometry *dl_GEOSPrepare_r(GEOSContextHandle_t h, const GEOSGeometry *g) {
    return p_GEOSPrepare_r(h, g);
}
void dl_GEOSPreparedGeom_destroy_r(GEOSContextHandle_t h, const GEOSPreparedGeometry *g) {
    p_GEOSPreparedGeom_destroy_r(h, g);
}
char dl_GEOSPreparedContains_r(GEOSContextHandle_t h, const GEOSPreparedGeometry *pg1, const GEOSGeometry *g2) {
    return p_GEOSPreparedContains_r(h, pg1, g2);
}
char dl_GEOSPreparedDistanceWithin_r(GEOSContextHandle_t h, const GEOSPreparedGeometry *pg1,
                                     const GEOSGeometry *g2, double dist) {
    return p_GEOSPreparedDistanceWithin_r(h, pg1, g2, dist);
}
GEOSCoordSequence *dl_GEOSPreparedNearestPoints_r(GEOSContextHandle_t h, const GEOSPreparedGeometry *pg1,
                                                  const GEOSGeometry *g2) {
    return p_GEOSPreparedNearestPoints_r(h, pg1, g2);
}

GEOSSTRtree *dl_GEOSSTRtree_create_r(GEOSContextHandle_t h, size_t nodeCapacity) {
    return p_GEOSSTRtree_create_r(h, nodeCapacity);
}
void dl_GEOSSTRtree_insert_r(GEOSContextHandle_t h, GEOSSTRtree *tree, const GEOSGeometry *g, void *item) {
    p_GEOSSTRtree_insert_r(h, tree, g, item);
}
void dl_GEOSSTRtree_query_r(GEOSContextHandle_t h, GEOSSTRtree *tree, const GEOSGeometry *g,
                            GEOSQueryCallback callback, void *userdata) {
    p_GEOSSTRtree_query_r(h, tree, g, callback, userdata);
}
void dl_GEOSSTRtree_destroy_r(GEOSContextHandle_t h, GEOSSTRtree *tree) { p_GEOSSTRtree_destroy_r(h, tree); }
