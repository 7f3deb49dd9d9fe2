#!/usr/bin/env python3
"""The replay pipeline written the straightforward way in Python, for `make bench` to compare
against: json per line, validity and accuracy checks, a 10 m distance filter with GeographicLib
geodesics, and geofences through Shapely's STRtree with prepared polygons (circles by geodesic
distance). Prints fixes per second."""
import json
import sys
import time

from geographiclib.geodesic import Geodesic
from shapely import STRtree, prepared
from shapely.geometry import Point, Polygon, box

W = Geodesic.WGS84


def load_fences(path):
    geoms, shapes = [], []
    for f in json.load(open(path))["features"]:
        g = f["geometry"]
        if g["type"] == "Point":
            lon, lat = g["coordinates"]
            r = f["properties"]["radius"]
            d = r / 111000.0 * 1.5
            geoms.append(box(lon - d * 2, lat - d, lon + d * 2, lat + d))
            shapes.append(("circle", (lat, lon, r)))
        else:
            poly = Polygon(g["coordinates"][0], g["coordinates"][1:])
            geoms.append(poly)
            shapes.append(("polygon", prepared.prep(poly)))
    return STRtree(geoms), shapes


def run(log, fences):
    tree, shapes = load_fences(fences)
    inside = set()
    last = None
    traveled = 0.0
    events = 0
    fixes = 0
    for line in open(log):
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if d.get("class") != "TPV":
            continue
        fixes += 1
        if d.get("mode", 0) < 2 or "time" not in d or "lat" not in d:
            continue
        if d.get("eph", 0) > 50:
            continue
        lat, lon = d["lat"], d["lon"]
        if last is not None:
            s = W.Inverse(last[0], last[1], lat, lon, Geodesic.DISTANCE)["s12"]
            if s >= 10:
                traveled += s
                last = (lat, lon)
        else:
            last = (lat, lon)
        p = Point(lon, lat)
        now = set()
        for i in tree.query(p):
            kind, shape = shapes[i]
            if kind == "circle":
                if W.Inverse(shape[0], shape[1], lat, lon, Geodesic.DISTANCE)["s12"] <= shape[2]:
                    now.add(i)
            elif shape.contains(p):
                now.add(i)
        events += len(now ^ inside)
        inside = now
    return fixes, traveled, events


if __name__ == "__main__":
    t0 = time.perf_counter()
    fixes, traveled, events = run(sys.argv[1], sys.argv[2])
    dt = time.perf_counter() - t0
    print(f"{fixes / dt:.0f} {fixes} {traveled:.1f} {events}")
