#!/usr/bin/env bash
# What the Debian libraries cost before any work of ours: the peak RSS (GNU time) of an empty C
# program linked with them, then gpstrackd itself started with 1,000 fences and no gpsd, with
# PROJ's libproj.so.25 and with a stand-in for it that provides the same three geod_* calls over
# GeographicLib (Karney's own C++ library, Debian's libgeographiclib-dev). The stand-in is a
# measurement only: it shows what the choice of geodesic library costs; the daemon ships with
# PROJ, as the brief names. Prints only: nothing here fails on a figure.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:?path to the release gpstrackd}
BENCH=${BENCH:?path to gpstrack-bench}
work=$(mktemp -d)
daemon=
cleanup() { [ -n "$daemon" ] && kill "$daemon" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# Peak RSS in KiB of a command, best of three (the page cache is warm after the first).
peak() {
    local best=
    for _ in 1 2 3; do
        /usr/bin/time -f %M -o "$work/t" "$@" >/dev/null 2>&1 || true
        local kb; kb=$(tail -n 1 "$work/t")
        if [ -z "$best" ] || [ "$kb" -lt "$best" ]; then best=$kb; fi
    done
    echo "$best"
}
mib() { awk -v k="$1" 'BEGIN { printf "%.1f MiB", k / 1024 }'; }

echo 'int main(void) { return 0; }' > "$work/empty.c"
ours=$(pkg-config --libs libgps geos sqlite3 libsystemd libmosquitto openssl)
gcc "$work/empty.c" -o "$work/none"
gcc "$work/empty.c" -o "$work/proj" -Wl,--no-as-needed $(pkg-config --libs proj)
gcc "$work/empty.c" -o "$work/all" -Wl,--no-as-needed $ours $(pkg-config --libs proj)
gcc "$work/empty.c" -o "$work/noproj" -Wl,--no-as-needed $ours
gcc "$work/empty.c" -o "$work/geographiclib" -Wl,--no-as-needed $ours -lGeographicLib

# The stand-in: libproj.so.25's geod_init, geod_inverse and geod_direct over GeographicLib. The
# caller's struct geod_geodesic (408 bytes) holds a pointer to the C++ object.
mkdir "$work/standin"
cat > "$work/standin/geod.cpp" <<'CPP'
#include <GeographicLib/Geodesic.hpp>
using GeographicLib::Geodesic;
static const Geodesic &G(const void *g) { return **static_cast<Geodesic *const *>(g); }
extern "C" void geod_init(void *g, double a, double f) { *static_cast<Geodesic **>(g) = new Geodesic(a, f); }
extern "C" void geod_inverse(const void *g, double lat1, double lon1, double lat2, double lon2,
                             double *s12, double *azi1, double *azi2) {
    double s, a1, a2; G(g).Inverse(lat1, lon1, lat2, lon2, s, a1, a2);
    if (s12) *s12 = s; if (azi1) *azi1 = a1; if (azi2) *azi2 = a2;
}
extern "C" void geod_direct(const void *g, double lat1, double lon1, double azi1, double s12,
                            double *lat2, double *lon2, double *azi2) {
    double la, lo, a2; G(g).Direct(lat1, lon1, azi1, s12, la, lo, a2);
    if (lat2) *lat2 = la; if (lon2) *lon2 = lo; if (azi2) *azi2 = a2;
}
CPP
g++ -O2 -shared -fPIC "$work/standin/geod.cpp" -o "$work/standin/libproj.so.25" \
    -Wl,-soname,libproj.so.25 -lGeographicLib

# gpstrackd with 1,000 fences, no gpsd (a port nobody listens on), peak RSS after 3 s.
"$BENCH" --write-fences 1000 "$work/fences.geojson"
idle() {
    rm -rf "$work/state"
    /usr/bin/time -f %M -o "$work/d" env "$@" "$BIN" --gpsd 127.0.0.1:1 --fences "$work/fences.geojson" \
        --log stderr --state-dir "$work/state" --socket "$work/d.sock" 2>/dev/null &
    daemon=$!
    sleep 3
    pkill -TERM -P "$daemon" 2>/dev/null || true
    wait "$daemon" 2>/dev/null || true
    daemon=
    tail -n 1 "$work/d"
}
d_proj=$(idle); d_gl=$(idle LD_LIBRARY_PATH="$work/standin")
d_proj2=$(idle); d_gl2=$(idle LD_LIBRARY_PATH="$work/standin")

echo "library floor: peak RSS of an empty C program linked with (best of 3)"
echo "  nothing                                        $(mib "$(peak "$work/none")")"
echo "  libproj alone                                  $(mib "$(peak "$work/proj")")"
echo "  gpstrackd's C libraries (libproj among them)   $(mib "$(peak "$work/all")")"
echo "  the same without libproj                       $(mib "$(peak "$work/noproj")")"
echo "  the same with GeographicLib for libproj        $(mib "$(peak "$work/geographiclib")")"
echo "gpstrackd with 1,000 fences, no gpsd, two runs interleaved:"
echo "  with PROJ's libproj.so.25                      $(mib "$d_proj"), $(mib "$d_proj2")"
echo "  with the GeographicLib stand-in for it         $(mib "$d_gl"), $(mib "$d_gl2")"
