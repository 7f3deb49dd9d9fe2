#!/usr/bin/env python3
"""The replay pipeline as a competent Python programmer would write it, for `make bench` to
compare against (issue 11): json per line with a cheap prefilter, validity and accuracy checks,
a 10 m distance filter with GeographicLib geodesics for the hops it counts, and the geofences
in bulk: all accepted fixes as one Shapely 2 points array, one vectorised STRtree query per
fence kind (polygons with predicate "within"; circles by envelope, then a vectorised distance
on the local plane), and enter/exit events from the runs of consecutive fixes inside each
fence. Prints fixes per second, then the counts."""
import json
import math
import sys
import time

import numpy as np
import shapely
from geographiclib.geodesic import Geodesic
from shapely import STRtree

W = Geodesic.WGS84
M_PER_DEG = 111_320.0


def load_fences(path):
    with open(path) as f:
        features = json.load(f)["features"]
    polys, centres, radii = [], [], []
    for f in features:
        g = f["geometry"]
        if g["type"] == "Point":
            centres.append(g["coordinates"][:2])
            radii.append(float(f["properties"]["radius"]))
        elif g["type"] == "Polygon":
            polys.append(shapely.polygons(g["coordinates"][0], holes=g["coordinates"][1:] or None))
    centres = np.array(centres, dtype=float).reshape(-1, 2)
    radii = np.array(radii, dtype=float)
    # Circle envelopes in degrees (longitude widened by the cosine of the latitude).
    dlat = radii / 110_574.0 * 1.01
    dlon = radii / (M_PER_DEG * np.cos(np.radians(centres[:, 1]))) * 1.01
    boxes = shapely.box(centres[:, 0] - dlon, centres[:, 1] - dlat, centres[:, 0] + dlon, centres[:, 1] + dlat)
    return STRtree(polys), np.array(polys), STRtree(boxes), centres, radii


def read_fixes(log):
    lats, lons = [], []
    total = 0
    with open(log) as f:
        for line in f:
            if '"TPV"' not in line:
                continue
            try:
                d = json.loads(line)
            except ValueError:
                continue
            if d.get("class") != "TPV":
                continue
            total += 1
            if d.get("mode", 0) < 2 or "time" not in d or "lat" not in d or "lon" not in d:
                continue
            if d.get("eph", 0) > 50:
                continue
            lats.append(d["lat"])
            lons.append(d["lon"])
    return total, np.array(lats), np.array(lons)


def odometer(lats, lons):
    """The 10 m distance filter: a flat-earth check first, GeographicLib for counted hops."""
    traveled = 0.0
    if len(lats) == 0:
        return traveled
    la, lo = lats[0], lons[0]
    for lat, lon in zip(lats.tolist(), lons.tolist()):
        dy = (lat - la) * 110_574.0
        dx = (lon - lo) * M_PER_DEG * math.cos(math.radians(lat))
        if dx * dx + dy * dy < 81.0:  # certainly under 10 m
            continue
        s = W.Inverse(la, lo, lat, lon, Geodesic.DISTANCE)["s12"]
        if s >= 10:
            traveled += s
            la, lo = lat, lon
    return traveled


def count_transitions(fix_idx, fence_idx, n):
    """Enter and exit events from the (fix, fence) pairs inside: one enter per run of
    consecutive fixes inside a fence, one exit per run that ends before the last fix."""
    if len(fix_idx) == 0:
        return 0
    order = np.lexsort((fix_idx, fence_idx))
    fi, fe = fix_idx[order], fence_idx[order]
    new_run = np.ones(len(fi), dtype=bool)
    new_run[1:] = (fe[1:] != fe[:-1]) | (fi[1:] != fi[:-1] + 1)
    run_end = np.ones(len(fi), dtype=bool)
    run_end[:-1] = new_run[1:]
    return int(new_run.sum() + (run_end & (fi < n - 1)).sum())


def run(log, fences):
    ptree, polys, ctree, centres, radii = load_fences(fences)
    total, lats, lons = read_fixes(log)
    traveled = odometer(lats, lons)
    points = shapely.points(lons, lats)
    # Polygons: one bulk query with the exact predicate (Shapely prepares the geometries).
    pi, pf = ptree.query(points, predicate="within")
    # Circles: envelopes in bulk, then the distance on the local plane, vectorised.
    ci, cf = ctree.query(points)
    dy = (lats[ci] - centres[cf, 1]) * 110_574.0
    dx = (lons[ci] - centres[cf, 0]) * M_PER_DEG * np.cos(np.radians(lats[ci]))
    inside = dx * dx + dy * dy <= radii[cf] ** 2
    ci, cf = ci[inside], cf[inside] + len(polys)
    events = count_transitions(np.concatenate([pi, ci]), np.concatenate([pf, cf]), len(lats))
    return total, traveled, events


if __name__ == "__main__":
    t0 = time.perf_counter()
    fixes, traveled, events = run(sys.argv[1], sys.argv[2])
    dt = time.perf_counter() - t0
    print(f"{fixes / dt:.0f} {fixes} {traveled:.1f} {events}")
