#!/usr/bin/env python3
"""Replay throughput against the parse floor, interleaved (run by `make bench`).

One log of FIXES fixes on the circuit through the fences' 20 km square; each round runs, one
after another: libgps's unpacker alone over the log (bench/unpack_floor.c, a process, linked
with libgps's shared library, the aim's floor, and with its archive as gpstrackd links it), then
`gpstrackd replay` of the log with 10, 1,000 and 10,000 fences, and the Python pipeline with
1,000 fences when BENCH_PYTHON names a Python with Shapely and GeographicLib. ROUNDS rounds
(at least 5): every figure is printed as min / median / max, and each ratio is taken within a
round (a load that comes and goes weighs on both sides of it) before its median is taken. The
times are CPU seconds (user + system, from wait4): on a shared 2-core machine a process's wall
time says as much about its neighbours as about it. BASELINE may name another gpstrackd (an
earlier build) to time beside this one with 1,000 fences.
Prints only: nothing here fails on a figure. Environment: BIN, BENCH (the release gpstrackd and
gpstrack-bench), FIXES, ROUNDS, BENCH_PYTHON, ALLOC_LIB (bench/malloc_count.c built: adds the
allocations per fix of a replay)."""
import os
import statistics
import subprocess
import sys
import tempfile

BIN = os.environ["BIN"]
BENCH = os.environ["BENCH"]
FIXES = int(os.environ.get("FIXES", "300000"))
ROUNDS = max(5, int(os.environ.get("ROUNDS", "5")))
PYTHON = os.environ.get("BENCH_PYTHON", "")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(argv, env=None):
    """CPU seconds (user + system) and peak RSS (KiB) of one process, its output thrown away.
    The peak is GNU time's: a child's own ru_maxrss counts what it shared of this Python
    before its exec."""
    peak_file = os.path.join(tempfile.gettempdir(), f"bench-replay-{os.getpid()}.time")
    p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", peak_file] + argv,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(p.pid, 0)
    cpu = usage.ru_utime + usage.ru_stime
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    if status != 0:
        sys.exit(f"bench-replay: {' '.join(argv)} failed ({status}): {err.strip()[:400]}")
    with open(peak_file) as f:
        peak = int(f.read().split()[-1])
    os.unlink(peak_file)
    return cpu, peak


def spread(xs, fmt="{:.3f}"):
    return f"{fmt.format(min(xs))} / {fmt.format(statistics.median(xs))} / {fmt.format(max(xs))}"


def main():
    work = tempfile.mkdtemp(prefix="gpstrackd-bench-replay-")
    log = os.path.join(work, "circuit.json")
    subprocess.check_call([BENCH, "--write-circuit-log", str(FIXES), log])
    fences = {}
    for n in (10, 1000, 10000):
        fences[n] = os.path.join(work, f"fences-{n}.geojson")
        subprocess.check_call([BENCH, "--write-fences", str(n), fences[n]])
    floor_bin = os.path.join(work, "unpack_floor")
    subprocess.check_call(
        ["gcc", "-O2", "-o", floor_bin, os.path.join(ROOT, "bench/unpack_floor.c")]
        + subprocess.check_output(["pkg-config", "--libs", "libgps"], text=True).split())
    # The same from libgps's archive, as gpstrackd (and gpsd's own clients) link it: linked in,
    # its parser runs slower here (docs/PERFORMANCE.md).
    archive_floor_bin = os.path.join(work, "unpack_floor_archive")
    subprocess.check_call(
        ["gcc", "-O2", "-o", archive_floor_bin, os.path.join(ROOT, "bench/unpack_floor.c"),
         "-l:libgps.a", "-l:libdbus-1.so.3", "-lm"])
    baseline = os.environ.get("BASELINE", "")
    figures = {k: [] for k in ("floor", "archive floor", 10, 1000, 10000, "python", "baseline")}
    rss = {k: [] for k in (10, 1000, 10000)}
    for _ in range(ROUNDS):
        figures["floor"].append(run([floor_bin, log])[0])
        figures["archive floor"].append(run([archive_floor_bin, log])[0])
        for n in (10, 1000, 10000):
            cpu, peak = run([BIN, "replay", "--fences", fences[n], log])
            figures[n].append(cpu)
            rss[n].append(peak / 1024)
        if baseline:
            figures["baseline"].append(run([baseline, "replay", "--fences", fences[1000], log])[0])
        if PYTHON:
            out = subprocess.run(
                [PYTHON, os.path.join(ROOT, "bench/python_pipeline.py"), log, fences[1000]],
                capture_output=True, text=True, check=True).stdout.split()
            figures["python"].append(float(out[1]) / float(out[0]))
    us = lambda xs: [x / FIXES * 1e6 for x in xs]
    ratio = lambda a, b: [x / y for x, y in zip(figures[a], figures[b])]
    print(f"replay of {FIXES:,} fixes against the parse floor, {ROUNDS} interleaved rounds (min / median / max):")
    print(f"  libgps gps_unpack alone (a C process)  {spread(figures['floor'])} s, "
          f"{spread(us(figures['floor']), '{:.2f}')} us a fix")
    print(f"  the same, libgps's archive linked in    {spread(figures['archive floor'])} s, "
          f"{spread(us(figures['archive floor']), '{:.2f}')} us a fix")
    floor_ok = statistics.median(figures["floor"]) >= 1
    for n in (10, 1000, 10000):
        print(f"  gpstrackd replay, {n:>6,} fences       {spread(figures[n])} s, {spread(us(figures[n]), '{:.2f}')} us a fix,"
              f" peak RSS {spread(rss[n], '{:.1f}')} MiB")
    if baseline:
        print(f"  the baseline ({baseline}), 1,000 fences  {spread(figures['baseline'])} s, "
              f"{spread(us(figures['baseline']), '{:.2f}')} us a fix, "
              f"{spread(ratio('baseline', 'floor'), '{:.2f}')}x the floor")
    r = ratio(1000, "floor")
    print(f"  1,000 fences / the floor: {spread(r, '{:.2f}')}x (aim: median at most 2x, "
          f"{'met' if statistics.median(r) <= 2 else 'NOT met'}; stretch 1.5x, "
          f"{'met' if statistics.median(r) <= 1.5 else 'not met'})"
          + ("" if floor_ok else "  (the floor took under a second: set FIXES higher)"))
    print(f"  1,000 fences / the floor from libgps's archive: {spread(ratio(1000, 'archive floor'), '{:.2f}')}x")
    r = ratio(10000, 10)
    print(f"  10,000 fences / 10 fences: {spread(r, '{:.2f}')}x (aim: median at most 2x, "
          f"{'met' if statistics.median(r) <= 2 else 'NOT met'})")
    if figures["python"]:
        r = ratio("python", 1000)
        print(f"  the Python pipeline (json, Shapely 2, GeographicLib), 1,000 fences: {spread(figures['python'])} s of "
              f"its own wall time; gpstrackd's whole process (CPU) is {spread(r, '{:.1f}')}x faster "
              f"(aim: at least 10x, {'met' if statistics.median(r) >= 10 else 'NOT met'})")
    else:
        print("  (no Python comparison: BENCH_PYTHON names no Python with shapely and geographiclib)")
    alloc = os.environ.get("ALLOC_LIB")
    if alloc:
        # Allocations per fix: a replay of the whole log less one of its first half, so that
        # start-up and the fences' loading cancel out.
        half = os.path.join(work, "half.json")
        with open(log) as src, open(half, "w") as dst:
            for i, line in enumerate(src):
                if i >= FIXES // 2 + 8:
                    break
                dst.write(line)
        counts = {}
        for name, path in (("whole", log), ("half", half)):
            out = os.path.join(work, f"alloc-{name}")
            env = dict(os.environ, LD_PRELOAD=alloc, MALLOC_COUNT_OUT=out)
            run([BIN, "replay", "--fences", fences[1000], path], env=env)
            with open(out) as f:
                counts[name] = [int(x) for x in f.read().split()]
        d = FIXES - FIXES // 2
        calls = (counts["whole"][0] - counts["half"][0]) / d
        size = (counts["whole"][1] - counts["half"][1]) / d
        print(f"  heap allocations a fix (replay, 1,000 fences, malloc counted by bench/malloc_count.c): "
              f"{calls:.2f} calls, {size:.0f} bytes")
    subprocess.call(["rm", "-rf", work])


main()
