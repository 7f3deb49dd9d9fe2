#!/usr/bin/env bash
# Writes the release link's symbol order (debian/text-order.txt, read by lld's
# --symbol-ordering-file in debian/rules and the Makefile's BENCH_BUILD): the functions of
# gpstrackd that run, found by callgrind over a replay of the bundled sample with 1,000 fences
# and over a live run (gpsfake, a real gpsd, `gpstrackctl status`, a stop), so that the linker
# puts them together at the front of the text. The kernel maps a binary's text 64 KiB around
# each page it faults in: code that runs, scattered among code that never does, kept 6 MiB of
# the 7.5 MiB text resident (docs/PERFORMANCE.md). A stale list costs memory, never
# correctness: a function missing from it is only placed after those listed.
# Callgrind cannot see the stop (the daemon hears no signal under valgrind), nor what it kills
# the daemon before: the list is then refined from page faults. BUILD (the release build's
# command, the Makefile's BENCH_BUILD) links gpstrackd with the list; the daemon follows the
# bench's feed natively under `perf record` of its page faults, stop included; the function
# at each fault in the text outside the listed ones is added; again, until a run adds none.
# Usage: BUILD='swift build ...' scripts/text-order.sh RELEASE_GPSTRACKD GPSTRACKCTL GPSTRACK_BENCH [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:?release gpstrackd}; CTL=${2:?gpstrackctl}; BENCH=${3:?gpstrack-bench}
OUT=${4:-debian/text-order.txt}
BUILD=${BUILD:?the release build command, as BENCH_BUILD in the Makefile}
work=$(mktemp -d)
feed=; daemon=
cleanup() {
    [ -n "$daemon" ] && kill -KILL "$daemon" 2>/dev/null || true
    [ -n "$feed" ] && { kill -9 "$feed"; wait "$feed"; } 2>/dev/null || true
    [ -f "$work/gpsd.pid" ] && kill -9 "$(cat "$work/gpsd.pid")" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
# Plays the bench's route through gpsfake at $1 seconds a sentence on a free port ($port), once
# it listens.
start_feed() {
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    gpsfake -q -1 -P "$port" -c "$1" samples/walk-and-drive.nmea >/dev/null 2>&1 &
    feed=$!
    for _ in $(seq 1 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
        sleep 0.1  # polls, bounded
    done
}
# Waits, $2 polls at most, until the daemon logging to $1 has heard the feed end.
await_end() {
    for _ in $(seq 1 "$2"); do
        grep -q "no report from gpsd" "$1" 2>/dev/null && break
        sleep 0.2  # polls, bounded
    done
    grep -q "no report from gpsd" "$1" || { cat "$1"; echo "text-order: the daemon saw no feed" >&2; exit 1; }
}
# Valgrind 3.19 cannot read the DWARF 5 Swift writes: the symbol table names the functions.
objcopy --strip-debug "$BIN" "$work/gpstrackd"
"$BENCH" --write-fences 1000 "$work/fences.geojson"
cg=(valgrind --tool=callgrind --demangle=no --dump-instr=no --compress-strings=no --compress-pos=no
    --callgrind-out-file="$work/cg.%p")

"${cg[@]}" "$work/gpstrackd" replay --fences "$work/fences.geojson" samples/walk-and-drive.gpsd.json >/dev/null 2>"$work/replay.log" \
    || { cat "$work/replay.log"; exit 1; }

printf 'no_data_timeout_s = 2\nsocket_group = root\nadmin_group = root\n' > "$work/live.conf"
# The bench's whole route, slower: callgrind runs the daemon some fifty times slower.
start_feed 0.02
"${cg[@]}" "$work/gpstrackd" --config "$work/live.conf" --gpsd "127.0.0.1:$port" --fences "$work/fences.geojson" \
    --log stderr --state-dir "$work/state" --socket "$work/d.sock" 2>"$work/live.log" &
daemon=$!
for _ in $(seq 1 50); do
    pgrep -f "gpsd .*-S $port " > "$work/gpsd.pid" 2>/dev/null && break
    sleep 0.1  # polls, bounded
done
await_end "$work/live.log" 3000
"$CTL" --socket "$work/d.sock" status >/dev/null || true
# Under valgrind the daemon hears no signal (it reads them from a signalfd): callgrind is asked
# for its profile instead, and the daemon is then killed.
callgrind_control -d "$daemon" >"$work/dump.log" 2>&1 || { cat "$work/dump.log"; exit 1; }
for _ in $(seq 1 100); do
    ls "$work"/cg.*.1 >/dev/null 2>&1 && break
    sleep 0.2  # polls, bounded
done
kill -KILL "$daemon"
wait "$daemon" 2>/dev/null || true
daemon=

# The Swift runtime's archives: most of their code sits in one plain .text section an object
# (Swift.o's is 1.6 MB), which the linker can only move whole. A function of such a section in
# the list would drag all of it to the front, among the functions that run; they are left out.
static="$(swiftc -print-target-info | sed -n 's/.*"runtimeResourcePath": "\(.*\)".*/\1/p')_static/linux"
for a in "$static"/*.a; do objdump -t "$a" 2>/dev/null; done > "$work/static-symbols"
# ...unless one of our objects defines it too: the objects come first, their copy is the one kept.
nm --defined-only "$(dirname "$BIN")"/*.build/*.o 2>/dev/null | awk 'NF == 3 { print $3 }' > "$work/our-symbols"

# Every function callgrind saw run in gpstrackd (not in the C libraries), once each, in the
# order the profiles name them; callgrind's "'2" marks a recursion's second level.
python3 - "$work" "$OUT" <<'PY'
import glob, os, re, sys
work, out = sys.argv[1], sys.argv[2]
whole = set()
for line in open(os.path.join(work, "static-symbols"), errors="replace"):
    if "\t" in line:
        left, right = line.rstrip("\n").split("\t", 1)
        fields = right.split(None, 1)
        if left.split() and left.split()[-1] == ".text" and len(fields) == 2:
            whole.add(fields[1].split()[-1])  # after ".hidden" or the like
whole -= set(line.strip() for line in open(os.path.join(work, "our-symbols")))
seen, names = set(), []
for path in sorted(glob.glob(os.path.join(work, "cg.*"))):
    ob = None
    for line in open(path, errors="replace"):
        if line.startswith("ob="):
            ob = line[3:].strip()
        elif line.startswith("fn=") and ob and ob.endswith("/gpstrackd"):
            name = re.sub(r"'\d+$", "", line[3:].strip())
            # Not the unnamed ("0x...") nor valgrind's own ("(below main)").
            if not name.startswith("0x") and " " not in name and name not in seen and name not in whole:
                seen.add(name)
                names.append(name)
with open(out, "w") as f:
    f.write("".join(n + "\n" for n in names))
with open(os.path.join(work, "whole"), "w") as f:
    f.write("".join(n + "\n" for n in sorted(whole)))
print(f"text-order: {len(names)} functions written to {out} ({len(whole)} of the runtime's left out: see above)")
PY

# The refinement: gpstrackd linked with the list so far follows the bench's feed (as
# bench-live.sh plays it) and is stopped by SIGTERM, under perf's record of its page faults.
refine() {
    rm -f "$BIN"
    $BUILD --product gpstrackd >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
    rm -rf "$work/state" "$work/gpsd.pid"
    start_feed 0.004
    pgrep -f "gpsd .*-S $port " > "$work/gpsd.pid" || true
    perf record -q -e page-faults -c 1 -d -o "$work/pf.data" -- "$BIN" --config "$work/live.conf" \
        --gpsd "127.0.0.1:$port" --fences "$work/fences.geojson" --log stderr --state-dir "$work/state" \
        --socket "$work/d.sock" 2>"$work/native.log" &
    daemon=$!
    await_end "$work/native.log" 900
    "$CTL" --socket "$work/d.sock" status >/dev/null || true
    pkill -TERM -f -- "^$BIN --config $work/live.conf" || true
    wait "$daemon" || true
    daemon=
    kill -9 "$feed" 2>/dev/null || true; wait "$feed" 2>/dev/null || true; feed=
    [ -s "$work/gpsd.pid" ] && kill -9 "$(cat "$work/gpsd.pid")" 2>/dev/null || true
    perf script -i "$work/pf.data" --show-mmap-events -F addr > "$work/faults" 2>/dev/null
    nm -n --defined-only "$BIN" > "$work/symbols"
    python3 - "$work" "$OUT" "$BIN" <<'PY'
import bisect, os, re, sys
work, out, binary = sys.argv[1:4]
listed = set(line.strip() for line in open(out))
whole = set(line.strip() for line in open(os.path.join(work, "whole")))
base = lo = hi = None
faults = []
for line in open(os.path.join(work, "faults")):
    if "PERF_RECORD_MMAP2" in line and line.rstrip().endswith(binary):
        m = re.search(r"\[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+|0) ", line)
        start, size, off = (int(g, 16) for g in m.groups())
        if off == 0:
            base = start
        if "r-xp" in line:
            lo, hi = start, start + size
    elif line.split() and re.fullmatch(r"[0-9a-f]+", line.split()[0]):
        faults.append(int(line.split()[0], 16))
# Text symbols by address: a folded function has several names at one address.
by_addr = {}
for line in open(os.path.join(work, "symbols")):
    f = line.split()
    if len(f) == 3 and f[1] in "tTwW":
        by_addr.setdefault(int(f[0], 16), []).append(f[2])
addrs = sorted(by_addr)
added = []
for a in faults:
    if base is None or not lo <= a < hi:
        continue
    i = bisect.bisect_right(addrs, a - base) - 1
    names = by_addr[addrs[i]] if i >= 0 else []
    if any(n in listed for n in names) or any(n in whole for n in names):
        continue
    for n in names:
        if n not in listed:
            listed.add(n)
            added.append(n)
with open(out, "a") as f:
    f.write("".join(n + "\n" for n in added))
with open(os.path.join(work, "added"), "w") as f:
    f.write(f"{len(added)}\n")
PY
}
for round in $(seq 1 12); do
    refine
    n=$(cat "$work/added")
    echo "text-order: refinement $round added $n functions faulted in outside the list"
    [ "$n" -gt 0 ] || break
done
