#!/usr/bin/env python3
"""Counts what `make test` ran, failed and skipped, and judges the skips.

  scripts/test-counts.py reset                 forget the counts of an earlier run
  scripts/test-counts.py swift -- CMD...       CMD is `swift test ...`; this appends
                                               --xunit-output and reads Swift Testing's report
  scripts/test-counts.py swift --shards N -- BIN
                                               BIN is the built test bundle (.xctest): its
                                               suites dealt round-robin to N processes at once
  scripts/test-counts.py checks NAME -- CMD... CMD prints a line per check: PASS, FAIL or SKIP,
                                               two spaces, its name (Tests/systemd/run.sh)
  scripts/test-counts.py judge                 every skip with its reason, the counts, and
                                               exit 1 on a failure, on a gpsfake file left in
                                               /tmp since `reset`, or, under CI=true, a skip
  scripts/test-counts.py repeat N REGEX --shards S -- BIN
                                               the Swift tests of BIN matching REGEX, N runs one
                                               after another, each in S shards, with a CPU hog
                                               (a busy process per core); ends with one line
                                               `repeat: R runs, F failed`, keeping the logs of
                                               each failed run (`make test-repeat`)

Each part passes CMD's output through and ends with the counts so far, alone on a line in the
form `N passed, N failed, N skipped` (CI's reader looks for it): the run ends with that line
whichever part stops it. A part exits 1 when CMD failed or one of its tests did.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATE = os.path.join(ROOT, ".build", "test-counts")


def load():
    parts = []
    if os.path.isdir(STATE):
        for name in sorted(os.listdir(STATE)):
            if name.endswith(".json"):
                with open(os.path.join(STATE, name)) as f:
                    parts.append(json.load(f))
    return parts


def counts_line(parts):
    passed = sum(p["passed"] for p in parts)
    failed = sum(len(p["failed"]) for p in parts)
    skipped = sum(len(p["skipped"]) for p in parts)
    return f"{passed} passed, {failed} failed, {skipped} skipped", failed, skipped


def save(part):
    os.makedirs(STATE, exist_ok=True)
    with open(os.path.join(STATE, part["part"] + ".json"), "w") as f:
        json.dump(part, f, indent=1)


def run(cmd):
    """Runs cmd with its output passed through; returns (status, stdout lines)."""
    lines = []
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, errors="replace")
    for line in p.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        lines.append(line.rstrip("\n"))
    return p.wait(), lines


def from_xunit(paths):
    """(passed, failed, skipped) from xUnit files: each testcase is one test (a parameterized
    test is one, whatever its arguments); skipped ones carry their reason."""
    passed, failed, skipped = 0, [], []
    for path in paths:
        for case in ET.parse(path).getroot().iter("testcase"):
            name = f"{case.get('classname', '')}/{case.get('name', '')}"
            skip = case.find("skipped")
            failures = case.findall("failure") + case.findall("error")
            if skip is not None:
                skipped.append({"test": name, "reason": (skip.text or skip.get("message") or "no reason given").strip()})
            elif failures:
                failed.append({"test": name, "reason": failures[0].get("message", "")})
            else:
                passed += 1
    return passed, failed, skipped


# Swift Testing's console lines (no colour when not on a terminal), for a run that wrote no
# report because the test process died.
VERDICT = re.compile(r'^\S+ Test (?P<name>.+?) (?:with \d+ test cases? )?(?P<verdict>passed|failed|skipped)(?:: "(?P<reason>.*)"| after)')
STARTED = re.compile(r'^\S+ Test (?P<name>[^ ]+\(.*?\)) started\.$')


def from_console(lines):
    passed, failed, skipped, started, ended = 0, [], [], set(), set()
    for line in lines:
        m = VERDICT.match(line)
        if m:
            ended.add(m["name"])
            if m["verdict"] == "passed":
                passed += 1
            elif m["verdict"] == "failed":
                failed.append({"test": m["name"], "reason": "failed"})
            else:
                skipped.append({"test": m["name"], "reason": m["reason"] or "no reason given"})
        elif (m := STARTED.match(line)):
            started.add(m["name"])
    for name in sorted(started - ended):
        failed.append({"test": name, "reason": "started, never ended: the test process died"})
    return passed, failed, skipped


def part_swift(cmd):
    os.makedirs(STATE, exist_ok=True)
    base = os.path.join(STATE, "swift.xml")
    reports = [base, base[:-4] + "-swift-testing.xml"]
    for path in reports:
        if os.path.exists(path):
            os.remove(path)
    status, lines = run(cmd + ["--xunit-output", base])
    passed, failed, skipped = counted("swift test", status, lines, reports)
    return {"part": "swift", "passed": passed, "failed": failed, "skipped": skipped}, status


def counted(name, status, lines, reports):
    """(passed, failed, skipped) of one test process: from its xUnit reports, or from its
    console when it wrote none (a test process that dies leaves no report or half of one); a
    failing exit with no failed test is a failure of its own."""
    try:
        written = [p for p in reports if os.path.exists(p)]
        if not written:
            raise ET.ParseError("no report written")
        passed, failed, skipped = from_xunit(written)
    except ET.ParseError as e:
        passed, failed, skipped = from_console(lines)
        failed.append({"test": name, "reason": f"exit status {status} and no readable xUnit report ({e}): the counts are from its console"})
    if status != 0 and not failed:
        failed.append({"test": name, "reason": f"exit status {status} with no failed test"})
    return passed, failed, skipped


def listed_tests(binary):
    """(test ids, failures): the Swift Testing tests of `binary`, as `Module.Suite/test()`."""
    xctest = subprocess.run([binary, "--list-tests"], capture_output=True, text=True)
    listed = subprocess.run([binary, "--testing-library", "swift-testing", "--list-tests"], capture_output=True, text=True)
    failed = []
    if xctest.returncode != 0 or listed.returncode != 0:
        failed.append({"test": "swift test", "reason": f"listing the tests of {binary} failed: {xctest.stderr}{listed.stderr}"})
        return [], failed
    # The shards run Swift Testing only: an XCTest case would go uncounted, so it fails here.
    stray = [l for l in xctest.stdout.splitlines() if "/" in l]
    if stray:
        failed.append({"test": "swift test", "reason": f"XCTest cases are not run by the shards: {stray[:3]}"})
    return [line for line in listed.stdout.splitlines() if "/" in line], failed


# Suites that wait for minutes on the wall clock and use little CPU (a server kept down for
# five minutes; Home Assistant started twice around a walk, two minutes; a serialized day with
# restarts, 320 s alone, which ended its shard at 548 s
# while its first test waited for a pool thread): each runs in a shard of its own from the
# start, so that it ends within the other shards' time instead of after them.
SOLO_SUITES = {"TraccarOutageTests", "LiveTripTests", "HomeAssistantLiveTests"}


def run_shards(n, binary, tests, directory, quiet=False, deadline=None):
    """Runs `tests` (ids of `binary`) in n processes at once (one more for each of the
    SOLO_SUITES among them), each suite whole in one of them (a
    `.serialized` suite keeps its order); logs and reports go to `directory`. Returns (shards,
    passed, failed, skipped). Unless `quiet`, each shard's console is printed whole when it ends.
    A shard still running `deadline` seconds after the start (a hang) has its process tree
    written to `directory`, is killed with its process group, and counts as a failure."""
    os.makedirs(directory, exist_ok=True)
    suites = sorted({t.split("/", 1)[0] for t in tests})
    solo = [s for s in suites if s.rsplit(".", 1)[-1] in SOLO_SUITES]
    rest = [s for s in suites if s not in solo]
    procs = []
    for k, mine in enumerate([set(rest[j::n]) for j in range(n)] + [{s} for s in solo]):
        if not mine:
            continue
        chosen = [t for t in tests if t.split("/", 1)[0] in mine]
        # The chosen tests by id: a filter may pick some tests of a suite.
        pattern = "^(" + "|".join(re.escape(t) for t in chosen) + ")"
        report_path = os.path.join(directory, f"shard-{k}.xml")
        log_path = os.path.join(directory, f"shard-{k}.log")
        for path in (report_path, log_path):
            if os.path.exists(path):
                os.remove(path)
        log = open(log_path, "w")
        cmd = [binary, "--testing-library", "swift-testing", "--filter", pattern, "--xunit-output", report_path]
        # A temporary folder of its own (as /tmp: anyone may write, sticky), removed when the
        # shard passed: the tests' folders and files do not pile up in /tmp run after run.
        tmp = tempfile.mkdtemp(prefix=f"gpstrackd-shard{k}-", dir="/tmp")
        os.chmod(tmp, 0o1777)
        env = dict(os.environ, TMPDIR=tmp)
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=env)
        procs.append((k, len(mine), proc, log, log_path, report_path, tmp))
    passed, failed, skipped = 0, [], []
    ends = None if deadline is None else time.monotonic() + deadline
    for k, count, proc, log, log_path, report_path, tmp in procs:
        try:
            status = proc.wait(timeout=None if ends is None else max(1, ends - time.monotonic()))
        except subprocess.TimeoutExpired:
            tree = subprocess.run(["ps", "-o", "pid,ppid,etime,args", "--forest", "-g", str(proc.pid)],
                                  capture_output=True, text=True).stdout
            with open(os.path.join(directory, f"shard-{k}.hang.txt"), "w") as f:
                f.write(tree)
            os.killpg(proc.pid, signal.SIGKILL)
            status = proc.wait()
            failed.append({"test": f"shard {k}", "reason": f"still running after {deadline} s: killed; "
                           f"its process tree is in shard-{k}.hang.txt"})
        with open(log_path, errors="replace") as f:
            lines = [l.rstrip("\n") for l in f]
        if not quiet:
            print(f"--- shard {k} ({count} suites), exit status {status} ---")
            sys.stdout.write("\n".join(lines) + "\n")
            sys.stdout.flush()
        p, f_, s = counted(f"shard {k}", status, lines, [report_path])
        if status == 0 and not f_:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"shard {k}'s temporary files kept in {tmp}")
        passed += p
        failed += f_
        skipped += s
    return len(procs), passed, failed, skipped


def part_shards(n, binary):
    """Runs the Swift Testing suites of `binary` in n processes at once. Most daemon tests wait
    on real processes (gpsfake's real-time feeds, brokers, journald) and a waiting test holds one
    of the cooperative pool's threads, which are as many as the cores: one process is bound by
    those threads, not by the CPU. Test ports are reserved across the processes
    (Tests/GPSTrackDaemonTests/TestPorts.swift)."""
    tests, failed = listed_tests(binary)
    if not tests and failed:
        return {"part": "swift", "passed": 0, "failed": failed, "skipped": []}, 1
    suites = {t.split("/", 1)[0] for t in tests}
    print(f"swift tests: {len(suites)} suites in {min(n, len(suites))} processes at once", flush=True)
    _, passed, f_, skipped = run_shards(n, binary, tests, STATE)
    failed += f_
    return {"part": "swift", "passed": passed, "failed": failed, "skipped": skipped}, 1 if failed else 0


# A run of the whole live suite takes about 8 minutes here in 8 shards beside the hogs: a run
# still going after 30 is a hang, not a slow machine.
RUN_DEADLINE = int(os.environ.get("REPEAT_RUN_DEADLINE_S", "1800"))


def repeat(runs, regex, n, binary):
    """The flake hunt: the tests matching `regex`, `runs` times one after another, each run in n
    shards, beside a busy process per core at normal priority (a loaded CI machine). A run
    fails when any of its tests fails; its logs stay in .build/test-repeat/run-I, a passed
    run's are removed. Ends with one line: `repeat: R runs, F failed`."""
    tests, failed = listed_tests(binary)
    if failed:
        for f in failed:
            print(f"FAILED  {f['test']}: {f['reason']}")
        print(f"repeat: 0 runs, {runs} failed")
        sys.exit(1)
    pattern = re.compile(regex)
    chosen = [t for t in tests if pattern.search(t)]
    if not chosen:
        print(f"no Swift test matches {regex!r}")
        print(f"repeat: 0 runs, {runs} failed")
        sys.exit(1)
    suites = sorted({t.split("/", 1)[0] for t in chosen})
    print(f"test-repeat: {len(chosen)} tests in {len(suites)} suites, {runs} runs of {min(n, len(suites))} shards, "
          f"{os.cpu_count()} busy processes beside them", flush=True)
    top = os.path.join(ROOT, ".build", "test-repeat")
    shutil.rmtree(top, ignore_errors=True)
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 1)]
    bad = 0
    try:
        for i in range(1, runs + 1):
            directory = os.path.join(top, f"run-{i}")
            started = time.monotonic()
            _, passed, f_, skipped = run_shards(n, binary, chosen, directory, quiet=True, deadline=RUN_DEADLINE)
            took = time.monotonic() - started
            print(f"run {i}: {passed} passed, {len(f_)} failed, {len(skipped)} skipped in {took:.0f} s", flush=True)
            for s in skipped:
                print(f"  SKIPPED {s['test']}: {s['reason']}")
            if f_:
                bad += 1
                for f in f_:
                    print(f"  FAILED  {f['test']}: {f['reason'][:300]}")
                print(f"  logs kept in {directory}")
            else:
                shutil.rmtree(directory, ignore_errors=True)
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    print(f"repeat: {runs} runs, {bad} failed")
    sys.exit(1 if bad else 0)


def left_in_tmp():
    """gpsfake's control sockets and what the tests, the fuzzers and the daemons they ran made
    in /tmp and /dev/shm (a failed shard's kept TMPDIR, gpstrackd-shardK-*, is named already)."""
    names = []
    for d in ("/tmp", "/dev/shm"):
        for n in os.listdir(d) if os.path.isdir(d) else []:
            if n.startswith("gpsfake-") or (n.startswith("gpstrackd") and not n.startswith("gpstrackd-shard")):
                names.append(os.path.join(d, n))
    return sorted(names)


TMP_BEFORE = os.path.join(STATE, "tmp-before.txt")


def part_checks(name, cmd):
    status, lines = run(cmd)
    passed, failed, skipped = 0, [], []
    for line in lines:
        kind, _, what = line.partition("  ")
        if kind == "PASS":
            passed += 1
        elif kind == "FAIL":
            failed.append({"test": f"{name}: {what}", "reason": "failed"})
        elif kind == "SKIP":
            check, _, reason = what.partition(": ")
            skipped.append({"test": f"{name}: {check}", "reason": reason or "no reason given"})
    if status != 0 and not failed:
        failed.append({"test": name, "reason": f"exit status {status} with no failed check"})
    return {"part": name, "passed": passed, "failed": failed, "skipped": skipped}, status


def report(part, status):
    save(part)
    for s in part["skipped"]:
        print(f"SKIPPED {s['test']}: {s['reason']}")
    for f in part["failed"]:
        print(f"FAILED  {f['test']}: {f['reason']}")
    line, _, _ = counts_line(load())
    print(line)
    sys.exit(1 if status != 0 or part["failed"] else 0)


def main(argv):
    if argv[:1] == ["reset"]:
        for name in os.listdir(STATE) if os.path.isdir(STATE) else []:
            os.remove(os.path.join(STATE, name))
        # What other programs on the machine left in /tmp is theirs: judge looks for new files.
        os.makedirs(STATE, exist_ok=True)
        with open(TMP_BEFORE, "w") as f:
            f.write("\n".join(left_in_tmp()) + "\n")
        return
    if argv[:1] == ["judge"]:
        parts = load()
        for p in parts:
            for s in p["skipped"]:
                print(f"SKIPPED {s['test']}: {s['reason']}")
        line, failed, skipped = counts_line(parts)
        # Every feed owns its directory and removes it when it stops (LiveHarness.Feed).
        before = set(open(TMP_BEFORE).read().split()) if os.path.exists(TMP_BEFORE) else set()
        left = [n for n in left_in_tmp() if n not in before]
        for name in left:
            print(f"FAILED  left behind since the run began: {name}")
        failed += len(left)
        ci = os.environ.get("CI") == "true"
        if ci and skipped:
            print(f"CI=true: {skipped} skipped; CI's machine has every tool (scripts/deps.sh) and ../shared")
        print(line)
        sys.exit(1 if failed or (ci and skipped) or not parts else 0)
    if len(argv) == 7 and argv[0] == "repeat" and argv[1].isdigit() and argv[3] == "--shards" and argv[4].isdigit() \
            and argv[5] == "--":
        repeat(int(argv[1]), argv[2], int(argv[4]), argv[6])
    if len(argv) == 5 and argv[0] == "swift" and argv[1] == "--shards" and argv[2].isdigit() and argv[3] == "--":
        report(*part_shards(int(argv[2]), argv[4]))
    if len(argv) >= 3 and argv[0] == "swift" and argv[1] == "--":
        report(*part_swift(argv[2:]))
    if len(argv) >= 4 and argv[0] == "checks" and argv[2] == "--":
        report(*part_checks(argv[1], argv[3:]))
    sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
