#ifndef GPSTRACK_GEOS_H
#define GPSTRACK_GEOS_H
/* GEOS's C API (Debian 12: GEOS 3.11, libgeos_c.so.1), loaded with dlopen when a fence needs
   it (a large or multi-part polygon, a corridor, a polygon our own check cannot prove valid),
   so that a box with circles and small polygons maps nothing of it. geos_c.h gives the types;
   nothing links its functions: call the dl_ wrappers below, same signatures, only after
   gpstrack_geos_load succeeded. Reentrant (_r) calls only. */
#include <stddef.h>
#include <geos_c.h>

/* Loads libgeos_c.so.1 once; 0 on success, else -1 with the reason. */
int gpstrack_geos_load(char *error, size_t size);

GEOSContextHandle_t dl_GEOS_init_r(void);
void dl_GEOS_finish_r(GEOSContextHandle_t h);
void dl_GEOSFree_r(GEOSContextHandle_t h, void *buffer);

GEOSCoordSequence *dl_GEOSCoordSeq_create_r(GEOSContextHandle_t h, unsigned int size, unsigned int dims);
void dl_GEOSCoordSeq_destroy_r(GEOSContextHandle_t h, GEOSCoordSequence *s);
int dl_GEOSCoordSeq_setXY_r(GEOSContextHandle_t h, GEOSCoordSequence *s, unsigned int idx, double x, double y);
int dl_GEOSCoordSeq_getXY_r(GEOSContextHandle_t h, const GEOSCoordSequence *s, unsigned int idx, double *x,
                            double *y);

GEOSGeometry *dl_GEOSGeom_createPointFromXY_r(GEOSContextHandle_t h, double x, double y);
GEOSGeometry *dl_GEOSGeom_createLinearRing_r(GEOSContextHandle_t h, GEOSCoordSequence *s);
GEOSGeometry *dl_GEOSGeom_createLineString_r(GEOSContextHandle_t h, GEOSCoordSequence *s);
GEOSGeometry *dl_GEOSGeom_createPolygon_r(GEOSContextHandle_t h, GEOSGeometry *shell, GEOSGeometry **holes,
                                          unsigned int nholes);
GEOSGeometry *dl_GEOSGeom_createCollection_r(GEOSContextHandle_t h, int type, GEOSGeometry **geoms,
                                             unsigned int ngeoms);
GEOSGeometry *dl_GEOSGeom_createRectangle_r(GEOSContextHandle_t h, double xmin, double ymin, double xmax,
                                            double ymax);
void dl_GEOSGeom_destroy_r(GEOSContextHandle_t h, GEOSGeometry *g);

GEOSGeometry *dl_GEOSBoundary_r(GEOSContextHandle_t h, const GEOSGeometry *g);
GEOSGeometry *dl_GEOSUnaryUnion_r(GEOSContextHandle_t h, const GEOSGeometry *g);
char dl_GEOSisValid_r(GEOSContextHandle_t h, const GEOSGeometry *g);
char *dl_GEOSisValidReason_r(GEOSContextHandle_t h, const GEOSGeometry *g);

const GEOSPreparedGeometry *dl_GEOSPrepare_r(GEOSContextHandle_t h, const GEOSGeometry *g);
void dl_GEOSPreparedGeom_destroy_r(GEOSContextHandle_t h, const GEOSPreparedGeometry *g);
char dl_GEOSPreparedContains_r(GEOSContextHandle_t h, const GEOSPreparedGeometry *pg1, const GEOSGeometry *g2);
char dl_GEOSPreparedDistanceWithin_r(GEOSContextHandle_t h, const GEOSPreparedGeometry *pg1,
                                     const GEOSGeometry *g2, double dist);
GEOSCoordSequence *dl_GEOSPreparedNearestPoints_r(GEOSContextHandle_t h, const GEOSPreparedGeometry *pg1,
                                                  const GEOSGeometry *g2);

/* The STRtree: the tests' reference for our own index (GPSTrackCore's BoxTree). */
GEOSSTRtree *dl_GEOSSTRtree_create_r(GEOSContextHandle_t h, size_t nodeCapacity);
void dl_GEOSSTRtree_insert_r(GEOSContextHandle_t h, GEOSSTRtree *tree, const GEOSGeometry *g, void *item);
void dl_GEOSSTRtree_query_r(GEOSContextHandle_t h, GEOSSTRtree *tree, const GEOSGeometry *g,
                            GEOSQueryCallback callback, void *userdata);
void dl_GEOSSTRtree_destroy_r(GEOSContextHandle_t h, GEOSSTRtree *tree);

#endif
