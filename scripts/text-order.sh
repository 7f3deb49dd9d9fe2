#!/usr/bin/env bash
# Writes the release link's symbol order (debian/text-order.txt, read by lld's
# --symbol-ordering-file in debian/rules and the Makefile's BENCH_BUILD): the functions of
# gpstrackd that run, found by callgrind over a replay of the bundled sample with 1,000 fences
# and over a live run (gpsfake, a real gpsd, `gpstrackctl status`, a stop), so that the linker
# puts them together at the front of the text. The kernel maps a binary's text 64 KiB around
# each page it faults in: code that runs, scattered among code that never does, kept 6 MiB of
# the 7.5 MiB text resident (docs/PERFORMANCE.md). A stale list costs memory, never
# correctness: a function missing from it is only placed after those listed.
# Usage: scripts/text-order.sh RELEASE_GPSTRACKD GPSTRACKCTL GPSTRACK_BENCH [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:?release gpstrackd}; CTL=${2:?gpstrackctl}; BENCH=${3:?gpstrack-bench}
OUT=${4:-debian/text-order.txt}
work=$(mktemp -d)
feed=; daemon=
cleanup() {
    [ -n "$daemon" ] && kill -KILL "$daemon" 2>/dev/null || true
    [ -n "$feed" ] && { kill -9 "$feed"; wait "$feed"; } 2>/dev/null || true
    [ -f "$work/gpsd.pid" ] && kill -9 "$(cat "$work/gpsd.pid")" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
# Valgrind 3.19 cannot read the DWARF 5 Swift writes: the symbol table names the functions.
objcopy --strip-debug "$BIN" "$work/gpstrackd"
"$BENCH" --write-fences 1000 "$work/fences.geojson"
cg=(valgrind --tool=callgrind --demangle=no --dump-instr=no --compress-strings=no --compress-pos=no
    --callgrind-out-file="$work/cg.%p")

"${cg[@]}" "$work/gpstrackd" replay --fences "$work/fences.geojson" samples/walk-and-drive.gpsd.json >/dev/null 2>"$work/replay.log" \
    || { cat "$work/replay.log"; exit 1; }

printf 'no_data_timeout_s = 2\nsocket_group = root\nadmin_group = root\n' > "$work/live.conf"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# A slower feed than the bench's: callgrind runs the daemon some fifty times slower.
head -n 2400 samples/walk-and-drive.nmea > "$work/route.nmea"
gpsfake -q -1 -P "$port" -c 0.02 "$work/route.nmea" >/dev/null 2>&1 &
feed=$!
for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.1  # polls, bounded
done
"${cg[@]}" "$work/gpstrackd" --config "$work/live.conf" --gpsd "127.0.0.1:$port" --fences "$work/fences.geojson" \
    --log stderr --state-dir "$work/state" --socket "$work/d.sock" 2>"$work/live.log" &
daemon=$!
for _ in $(seq 1 50); do
    pgrep -f "gpsd .*-S $port " > "$work/gpsd.pid" 2>/dev/null && break
    sleep 0.1  # polls, bounded
done
for _ in $(seq 1 1500); do
    grep -q "no report from gpsd" "$work/live.log" 2>/dev/null && break
    sleep 0.2  # polls, bounded
done
grep -q "no report from gpsd" "$work/live.log" || { cat "$work/live.log"; echo "text-order: the live run saw no feed" >&2; exit 1; }
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
print(f"text-order: {len(names)} functions written to {out} ({len(whole)} of the runtime's left out: see above)")
PY
