#!/usr/bin/python3
"""A GPS receiver on a pseudo-terminal, as gpsfake makes one: opens a pty, writes the slave's
path to PATHFILE, waits for GOFILE to exist, then writes ROUTE's NMEA sentences into it every
CYCLE seconds. After the route it repeats the last epoch (same time stamps: the daemon rejects
them as duplicates) so that gpsd keeps receiving data. Whatever gpsd writes back is drained."""
import os
import pty
import select
import sys
import time
import tty

route, path_file, go_file, cycle = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
master, slave = pty.openpty()
tty.setraw(slave)
name = os.ttyname(slave)
os.chmod(name, 0o666)
with open(path_file + ".new", "w") as f:
    f.write(name + "\n")
os.rename(path_file + ".new", path_file)

lines = [l.rstrip("\r\n") for l in open(route) if l.startswith("$")]
last_epoch = lines[-4:]


def drain():
    while select.select([master], [], [], 0)[0]:
        try:
            os.read(master, 4096)
        except OSError:
            return


while not os.path.exists(go_file):
    drain()
    time.sleep(0.05)  # polls for the go file
for line in lines:
    os.write(master, (line + "\r\n").encode())
    drain()
    time.sleep(cycle)  # paces the sentences, as a receiver does (not a wait)
with open(go_file + ".done", "w") as f:
    f.write("done\n")
while True:
    for line in last_epoch:
        os.write(master, (line + "\r\n").encode())
    drain()
    time.sleep(0.5)  # paces the last epoch's repeats (not a wait)
