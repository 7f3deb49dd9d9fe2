#!/usr/bin/env python3
"""The soak (`make soak`): gpstrackd for SOAK_MIN minutes (default 30) against a real gpsd,
mosquitto and journald, fed a 10 Hz NMEA stream through a pty (ten fixes a wall-clock second,
so fix time runs ten times faster than the clock; all tracking time comes from the fixes), with
a fault every SOAK_FAULT_S seconds (default 60) while the vehicle is parked away from every
fence: gpsd restarted, mosquitto restarted, SIGHUP with a good then a bad fences file, 50
watchers connecting and vanishing, and once a SIGKILL of the daemon and a restart.

Checks: every fence transition of the feed (enter, exit, dwell, as `gpstrackd replay` of the
same fixes reports them) reported exactly once in the journal, at the same fix time (within
3 s); the daemon's RSS and open descriptors flat after the warm-up (5 minutes, or a third of a
shorter run); no journal entry at warning or worse except those the injected faults explain.
Exit 0 when all hold. Usage: SOAK_MIN=3 SOAK_FAULT_S=30 scripts/soak.py BIN_DIR
"""
import json, os, pty, signal, socket, subprocess, sys, tempfile, threading, time, tty

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug")
MINUTES = float(os.environ.get("SOAK_MIN", "30"))
FAULT_S = int(os.environ.get("SOAK_FAULT_S", "60"))
RATE = 10                                   # fixes a wall-clock second; one fix per fix second
LAPS = max(2, int(MINUTES * 60 // FAULT_S))
LAP_FIX_S = FAULT_S * RATE
WARMUP = min(300.0, LAPS * FAULT_S / 3)
work = tempfile.mkdtemp(prefix="gpstrackd-soak-")
procs = []


def log(msg):
    print(f"soak: {msg}", flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what, timeout, cond):
    end = time.time() + timeout
    while time.time() < end:
        if cond():
            return
        time.sleep(0.1)  # polls the condition
    raise SystemExit(f"soak: FAIL timed out waiting for {what}")


def journal_sync():
    """Returns once journald has stored every entry sent to it before: a marker sent to the same
    datagram socket after them (journald reads it in order) is found by journalctl."""
    marker = f"gpstrackd-soak-sync-{os.getpid()}-{time.monotonic_ns()}"
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.sendto(f"MESSAGE={marker}\nSYSLOG_IDENTIFIER=gpstrackd-soak\n".encode(), "/run/systemd/journal/socket")
    s.close()
    wait_for("journald to store the soak's marker", 60, lambda: marker in subprocess.run(
        ["journalctl", "-o", "cat", "--no-pager", "SYSLOG_IDENTIFIER=gpstrackd-soak", f"MESSAGE={marker}"],
        capture_output=True, text=True).stdout)


def journald_listening():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        s.connect("/run/systemd/journal/socket")
        return True
    except OSError:
        return False
    finally:
        s.close()


def spawn(args, **kw):
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
    procs.append(p)
    return p


# --- the parts ---------------------------------------------------------------------------
if not journald_listening():
    spawn(["/lib/systemd/systemd-journald"])
    wait_for("journald", 20, journald_listening)

if subprocess.run([f"{BIN}/gpstrack-bench", "--write-soak-route", str(LAPS), str(LAP_FIX_S), work]).returncode != 0:
    raise SystemExit("soak: FAIL could not write the route")
epochs = [e.strip("\n") + "\n" for e in open(f"{work}/route.nmea").read().split("\n\n") if e.strip()]
fences = f"{work}/fences-live.geojson"
good = open(f"{work}/fences.geojson").read()
bad = open(f"{work}/fences-bad.geojson").read()
open(fences, "w").write(good)

master, slave = pty.openpty()
tty.setraw(slave)
device = os.ttyname(slave)
os.set_blocking(master, False)
gpsd_port, mqtt_port = free_port(), free_port()


def start_gpsd():
    return spawn(["gpsd", "-N", "-n", "-b", "-S", str(gpsd_port), "-F", f"{work}/gpsd.sock", device])


def start_broker():
    conf = f"{work}/mosquitto.conf"
    open(conf, "w").write(f"listener {mqtt_port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    return spawn(["mosquitto", "-c", conf])


gpsd, broker = start_gpsd(), start_broker()
conf = f"{work}/gpstrackd.conf"
open(conf, "w").write(f"""gpsd = 127.0.0.1:{gpsd_port}
fences = {fences}
socket = {work}/gpstrackd.sock
state_dir = {work}/state
socket_group = root
admin_group = root
mqtt_host = 127.0.0.1
mqtt_port = {mqtt_port}
no_data_timeout_s = 5
clock_offset_warn_s = 315360000
""")
# The feed's fixes are the simulator's route, dated in the past: months behind this machine's
# clock by design, which the clock check (tested in ClockCheckTests) would report; bounded above.
started = time.time()


def start_daemon():
    return spawn([f"{BIN}/gpstrackd", "--config", conf, "--log", "journal"])


daemon = start_daemon()
pids = [daemon.pid]
wait_for("the control socket", 20, lambda: os.path.exists(f"{work}/gpstrackd.sock"))

# --- the feed: one epoch every 0.1 s; what gpsd is not there to read is dropped -----------
feed_start = time.time() + 1
feed_end = feed_start + len(epochs) / RATE


def feed():
    for i, epoch in enumerate(epochs):
        delay = feed_start + i / RATE - time.time()
        if delay > 0:
            time.sleep(delay)  # paces the feed at RATE, as a receiver does (not a wait)
        try:
            os.write(master, epoch.encode())
        except BlockingIOError:
            pass


threading.Thread(target=feed, daemon=True).start()


def watchers(n=50):
    socks = []
    for _ in range(n):
        s = socket.socket(socket.AF_UNIX)
        s.connect(f"{work}/gpstrackd.sock")
        s.sendall(b'{"cmd":"watch"}\n')
        socks.append(s)
    # Each is a watcher once the daemon has answered it (PROTOCOL.md, WatchReply).
    for s in socks:
        s.settimeout(30)
        reply = b""
        while b"\n" not in reply:
            chunk = s.recv(4096)
            if not chunk:
                raise SystemExit("soak: FAIL a watcher was hung up on before its reply")
            reply += chunk
        if b'"watching":true' not in reply:
            raise SystemExit(f"soak: FAIL a watcher got {reply[:200]!r}")
    for i, s in enumerate(socks):
        if i % 2:   # half vanish with a reset, half with a plain close
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        s.close()


faults = []          # (time, kind)
hup_good = True
samples = []         # (time since start, rss KiB, fds)
kinds = ["gpsd restart", "SIGKILL and restart", "SIGHUP bad fences", "broker restart", "50 watchers", "SIGHUP good fences"]
later = ["gpsd restart", "broker restart", "SIGHUP", "50 watchers"]


def inject(k):
    global gpsd, broker, daemon, hup_good
    kind = kinds[k - 1] if k <= len(kinds) else later[(k - len(kinds) - 1) % len(later)]
    if kind == "SIGHUP":
        kind = "SIGHUP good fences" if hup_good else "SIGHUP bad fences"
    faults.append((time.time(), kind))
    log(f"{time.time() - feed_start:6.0f} s: {kind}")
    if kind == "gpsd restart":
        gpsd.kill(); gpsd.wait()
        gpsd = start_gpsd()
    elif kind == "broker restart":
        # wait() returns once mosquitto has exited: its connections are closed (the daemon sees
        # them end) and its port is free (mosquitto binds it with SO_REUSEADDR).
        broker.terminate(); broker.wait()
        broker = start_broker()
    elif kind.startswith("SIGHUP"):
        open(fences, "w").write(good if "good" in kind else bad)
        hup_good = "bad" in kind
        daemon.send_signal(signal.SIGHUP)
    elif kind == "50 watchers":
        watchers()
    elif kind == "SIGKILL and restart":
        daemon.kill(); daemon.wait()
        daemon = start_daemon()
        pids.append(daemon.pid)


def sample():
    try:
        status = open(f"/proc/{daemon.pid}/status").read()
        rss = int(next(l for l in status.splitlines() if l.startswith("VmRSS:")).split()[1])
        fds = len(os.listdir(f"/proc/{daemon.pid}/fd"))
        samples.append((time.time() - feed_start, rss, fds))
    except (OSError, StopIteration):
        pass


# Faults at the start of each lap (the vehicle parked away from the fences); samples at mid-lap.
for lap in range(1, LAPS):
    t_fault = feed_start + lap * FAULT_S + 1
    while time.time() < t_fault:
        if time.time() - feed_start > 0 and int((time.time() - feed_start) % FAULT_S) == FAULT_S // 2 \
                and (not samples or time.time() - feed_start - samples[-1][0] > 2):
            sample()
        time.sleep(0.2)  # the scenario's clock: faults and samples at set times of the feed
    inject(lap)
while time.time() < feed_end + 3:
    if int((time.time() - feed_start) % FAULT_S) == FAULT_S // 2 and (not samples or time.time() - feed_start - samples[-1][0] > 2):
        sample()
    time.sleep(0.2)  # the scenario's clock, as above
daemon.send_signal(signal.SIGTERM)
daemon.wait(timeout=30)
for p in procs:
    if p.poll() is None:
        p.terminate()
for p in procs:
    try:
        p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()

# --- the checks ----------------------------------------------------------------------------
failures = []
ref_conf = f"{work}/replay.conf"
open(ref_conf, "w").write("")
replay = subprocess.run([f"{BIN}/gpstrackd", "replay", "--config", ref_conf, "--fences", f"{work}/fences.geojson",
                         f"{work}/route.gpsd.json"], capture_output=True, text=True)
expected = []
for line in replay.stdout.splitlines():
    e = json.loads(line)
    if e.get("event") in ("enter", "exit", "dwell"):
        expected.append((e["event"], e["fence"], e["time"]))


def seconds(iso):
    import datetime
    return datetime.datetime.strptime(iso.replace("Z", "+0000"), "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()


entries = []
journal_sync()   # the daemons have ended: everything they sent is stored once the marker is
for pid in pids:
    out = subprocess.run(["journalctl", "-o", "json", "--no-pager", "--since", f"@{int(started) - 1}", f"_PID={pid}"],
                         capture_output=True, text=True).stdout
    entries += [json.loads(l) for l in out.splitlines() if l.strip()]
reported = [(e["GPSTRACK_EVENT"], e.get("GPSTRACK_FENCE"), e.get("GPSTRACK_TIME")) for e in entries
            if e.get("GPSTRACK_EVENT") in ("enter", "exit", "dwell")]
unmatched = list(reported)
missing = []
for kind, fence, t in expected:
    match = next((r for r in unmatched if r[0] == kind and r[1] == fence and r[2] and abs(seconds(r[2]) - seconds(t)) <= 3), None)
    if match:
        unmatched.remove(match)
    else:
        missing.append((kind, fence, t))
log(f"transitions: {len(expected)} in the feed (replay), {len(reported)} reported, {len(missing)} missing, "
    f"{len(unmatched)} reported more than once or not in the feed")
if missing or unmatched or not expected:
    failures.append(f"transitions: missing {missing[:5]}, extra {unmatched[:5]}")

allowed = {"gpsd_lost": "gpsd restart", "fix_lost": "gpsd restart", "mqtt_lost": "broker restart",
           "fences_reload_failed": "SIGHUP bad fences"}
warnings = [e for e in entries if int(e.get("PRIORITY", "6")) <= 4]
kinds_done = {k for _, k in faults}
explained = [e for e in warnings if allowed.get(e.get("GPSTRACK_EVENT")) in kinds_done]
other = [e for e in warnings if e not in explained]
by_event = {}
for e in explained:
    by_event[e["GPSTRACK_EVENT"]] = by_event.get(e["GPSTRACK_EVENT"], 0) + 1
log(f"journal: {len(entries)} entries, {len(warnings)} at warning or worse, all from injected faults: {by_event}"
    if not other else f"journal: {len(other)} unexplained entries at warning or worse")
if other:
    failures.append("unexplained warnings: " + "; ".join(f"{e.get('GPSTRACK_EVENT')}: {e.get('MESSAGE')}" for e in other[:5]))
for kind in ("gpsd_lost", "mqtt_lost", "fences_reload_failed"):
    n_faults = sum(1 for _, k in faults if k == allowed[kind])
    if by_event.get(kind, 0) > n_faults:
        failures.append(f"{by_event[kind]} {kind} entries for {n_faults} faults")

steady = [s for s in samples if s[0] >= WARMUP]
if len(steady) >= 2:
    n = max(1, len(steady) // 4)
    first = sum(s[1] for s in steady[:n]) / n
    last = sum(s[1] for s in steady[-n:]) / n
    fds = [s[2] for s in steady]
    log(f"RSS after warm-up ({WARMUP:.0f} s): first {first / 1024:.1f} MiB, last {last / 1024:.1f} MiB, "
        f"max {max(s[1] for s in steady) / 1024:.1f} MiB over {len(steady)} samples; open fds {min(fds)}..{max(fds)}")
    if last > first * 1.05 + 1024:
        failures.append(f"RSS grew from {first:.0f} to {last:.0f} KiB after the warm-up")
    if max(fds) - min(fds) > 2:
        failures.append(f"open fds not flat: {min(fds)}..{max(fds)}")
else:
    failures.append(f"only {len(steady)} samples after the warm-up")
log(f"faults: {len(faults)} ({', '.join(sorted(kinds_done))}); feed {len(epochs)} fixes in {len(epochs) / RATE:.0f} s")
if failures:
    for f in failures:
        log("FAIL " + f)
    log(f"work directory kept: {work}")
    sys.exit(1)
log("OK")
subprocess.run(["rm", "-rf", work])
