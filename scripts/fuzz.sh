#!/usr/bin/env bash
# Builds the libFuzzer harnesses in fuzz/ against the project's sources with swiftc
# (-sanitize=fuzzer,address: the Swift toolchain carries libFuzzer, nothing else is needed) and
# runs each for FUZZ_SECONDS (default 300) from its seed corpus in the repository.
# Usage: scripts/fuzz.sh [HARNESS...]      (default: every harness in fuzz/)
# Findings (crash-*, timeout-*, oom-*, leak-*) go to .build/fuzz/findings/HARNESS/ and fail
# the run; a finding fixed is kept in fuzz/HARNESS/regressions/ and replayed first. The corpus
# each run grows stays in .build/fuzz/corpus/HARNESS (the repository's seeds stay small).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${FUZZ_SECONDS:-300}
OUT=.build/fuzz
mkdir -p "$OUT/lib"
S=Sources
# Every C module (Sources/C*/module.modulemap), its headers' pkg-config flags as Package.swift
# names them, and the libraries the module maps link.
C_INCLUDES=()
LIBS=()
for m in "$S"/C*/module.modulemap "$S"/C*/include/module.modulemap; do
    C_INCLUDES+=(-I "$(dirname "$m")")
    for l in $(sed -n 's/^ *link "\(.*\)".*/\1/p' "$m"); do LIBS+=("-l$l"); done
done
for f in $(pkg-config --cflags-only-I $(sed -n 's/.*pkgConfig: "\([^"]*\)".*/\1/p' Package.swift)); do C_INCLUDES+=(-Xcc "$f"); done
# --typecheck: each harness type-checked against the debug build's modules (make check, which
# has built them): seconds, where the instrumented build below takes minutes, and a harness left
# behind by a change to what it calls fails the edit-test loop, not CI's last stage.
if [ "${1:-}" = --typecheck ]; then
    modules=$(swift build --show-bin-path)/Modules
    n=0
    for h in fuzz/*/harness.swift; do
        swiftc -typecheck -parse-as-library -swift-version 6 -I "$modules" "${C_INCLUDES[@]}" "$h" || { echo "fuzz: $h does not type-check" >&2; exit 1; }
        n=$((n + 1))
    done
    echo "fuzz: $n harnesses type-check"
    exit 0
fi
# The C and C++ targets (the GeographicLib shim, libmosquitto's loader), as one archive.
shims=()
for src in "$S"/C*/*.c "$S"/C*/*.cpp; do
    obj="$OUT/lib/$(basename "$src").o"
    case $src in *.cpp) c++ -O2 -fPIC -I "$(dirname "$src")/include" -c "$src" -o "$obj" ;;
                 *) cc -O2 -fPIC -I "$(dirname "$src")/include" -c "$src" -o "$obj" ;; esac
    shims+=("$obj")
done
rm -f "$OUT/lib/libcshims.a"
ar rcs "$OUT/lib/libcshims.a" "${shims[@]}"
LIBS=(-lcshims "${LIBS[@]}")
FLAGS=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -use-ld=lld)

# The library modules, instrumented, rebuilt when a source is newer than the archive.
build_module() {   # NAME
    local name=$1 lib="$OUT/lib/lib$1.a"
    if [ -f "$lib" ] && [ -z "$(find "$S/$name" -name '*.swift' -newer "$lib" | head -1)" ]; then return; fi
    echo "fuzz: building $name" >&2
    # swiftc adds to an archive that exists: a renamed source's old object would stay and clash.
    rm -f "$lib"
    # -enable-testing: a harness may reach the internals it exercises (@testable import).
    swiftc "${FLAGS[@]}" -enable-testing -emit-library -static -emit-module -module-name "$name" -I "$OUT/lib" "${C_INCLUDES[@]}" \
        $(find "$S/$name" -name '*.swift' | sort) -o "$lib" -emit-module-path "$OUT/lib/$name.swiftmodule"
}
build_module GPSTrackJSON
build_module GPSTrackVocabulary
build_module GPSTrackProtocol
build_module GPSTrackCore
build_module GPSTrackExport
build_module GPSTrackDaemon

# The harnesses' state directories and sockets (GPSTRACK_FUZZ_DIR), in RAM where there is
# /dev/shm, removed when the script ends: nothing of theirs is left in /tmp (make test checks).
FUZZ_DIR=$(mktemp -d "$( [ -w /dev/shm ] && echo /dev/shm || echo /tmp )/gpstrackd-fuzz.XXXXXX")
trap 'rm -rf "$FUZZ_DIR"' EXIT
export GPSTRACK_FUZZ_DIR=$FUZZ_DIR

rm -f "$OUT/failures.txt"
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=($(ls fuzz))
status=0
for h in "${harnesses[@]}"; do
    bin="$OUT/fuzz-$h"
    rm -f "$bin"   # a harness that no longer builds must not run its last binary
    swiftc "${FLAGS[@]}" -I "$OUT/lib" "${C_INCLUDES[@]}" "fuzz/$h/harness.swift" -L "$OUT/lib" \
        -lGPSTrackDaemon -lGPSTrackExport -lGPSTrackCore -lGPSTrackProtocol -lGPSTrackVocabulary -lGPSTrackJSON "${LIBS[@]}" -o "$bin" 2>&1 | grep -v "Cannot export local symbol" >&2 || true
    [ -x "$bin" ] || { echo "fuzz: $h did not build" >&2; exit 1; }
    mkdir -p "$OUT/corpus/$h" "$OUT/findings/$h"
    # Past findings kept in fuzz/HARNESS/regressions, replayed in name order in one process
    # before the run: some need what an earlier input left behind (a reused handle's state).
    if [ -d "fuzz/$h/regressions" ]; then
        if ! SWIFT_BACKTRACE=enable=no "$bin" -timeout=5 -rss_limit_mb=2048 \
                $(ls -d "fuzz/$h/regressions/"* | sort) > "$OUT/$h.regressions.log" 2>&1; then
            echo "fuzz: $h FAILED ITS REGRESSIONS (fuzz/$h/regressions):" >&2
            tail -30 "$OUT/$h.regressions.log" >&2
            { echo "fuzz: $h FAILED ITS REGRESSIONS"; tail -8 "$OUT/$h.regressions.log"; } >> "$OUT/failures.txt"
            status=1
        fi
        echo "fuzz: $h: $(grep -c '^Executed' "$OUT/$h.regressions.log") regressions replayed" >&2
    fi
    echo "fuzz: $h for ${SECONDS_EACH}s" >&2
    # -timeout: an input that takes 5 s is a hang (libgps's parser looping for ever was one).
    # SWIFT_BACKTRACE=enable=no: a Swift trap is told by libFuzzer's handler (the harness's
    # line, the input), not by Swift's backtracer, whose reading of other threads' stacks ASan
    # reports as an overflow of its own (CrashHandlerLinux.cpp) and hides the trap.
    if ! SWIFT_BACKTRACE=enable=no "$bin" -max_total_time="$SECONDS_EACH" -timeout=5 -rss_limit_mb=2048 -max_len=65536 \
            -print_final_stats=1 -artifact_prefix="$OUT/findings/$h/" \
            "$OUT/corpus/$h" "fuzz/$h/corpus" > "$OUT/$h.log" 2>&1; then
        echo "fuzz: $h FOUND A PROBLEM: $(ls "$OUT/findings/$h")" >&2
        tail -30 "$OUT/$h.log" >&2
        # Its essentials again in failures.txt, which `make test` prints last (the lines above
        # go out beside the soak's and are easily lost): the kind, the harness's message, where,
        # and the input as libFuzzer gave it (Base64, for a small one).
        {
            echo "fuzz: $h FOUND A PROBLEM: $(ls "$OUT/findings/$h")"
            grep -aE 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|^SUMMARY|Fatal error|failed:|deadly signal| in \S*(GPSTrack|harness)|Test unit written|^Base64:' \
                "$OUT/$h.log" | head -16 | cut -c1-400
        } >> "$OUT/failures.txt"
        status=1
    fi
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$OUT/$h.log" | grep -o '[0-9]*$' || echo "?")
    cov=$(grep -o 'cov: [0-9]*' "$OUT/$h.log" | tail -1 | grep -o '[0-9]*' || echo "?")
    echo "fuzz: $h: $runs inputs in ${SECONDS_EACH}s, coverage $cov edges, corpus $(ls "$OUT/corpus/$h" | wc -l) files" >&2
done
exit $status
