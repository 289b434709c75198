#!/usr/bin/env python3
"""`make soak`'s live feed: JSON Lines on standard output, paced to the wall clock.

Usage: soak-feed.py RATE SECONDS [FEATURES]

Creates FEATURES features (default 2,000, long-ish titles), then sends status changes to them
round robin at RATE events a second for SECONDS seconds, every event dated now: the board's
whole feed falls inside the journal's retention window (the flow's 14 days), the load that
once grew the journal past its bound. Stops by itself; then waits (the board reading its end
of a pipe is not told end-of-file before the soak stops it)."""

import json
import sys
import time

rate = int(sys.argv[1])
seconds = int(sys.argv[2])
features = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
statuses = ["todo", "in-progress", "in-review", "done"]
out = sys.stdout


def stamp(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".%03dZ" % int((t % 1) * 1000)


seq = 0


def emit(topic, payload):
    global seq
    seq += 1
    line = {"topic": topic, "time": stamp(time.time()), "seq": seq, "source": "soak", "payload": payload}
    out.write(json.dumps(line, separators=(",", ":")) + "\n")


start = time.time()
for n in range(1, features + 1):
    title = "Feature %d: make the soak's board hold a steady load of live events, every one dated now" % n
    emit("feature.created", {"id": "F-%d" % n, "title": title, "status": "todo", "points": n % 8 + 1})
out.flush()
# Ten chunks a second, each the events due by then.
sent = 0
tick = 0
while True:
    tick += 1
    due = start + tick / 10
    if due - start > seconds:
        break
    now = time.time()
    if due > now:
        time.sleep(due - now)
    want = int(rate * (time.time() - start))
    while sent < want:
        n = sent % features + 1
        emit("feature.updated", {"id": "F-%d" % n, "status": statuses[(sent // features + 1) % 4]})
        sent += 1
    out.flush()
sys.stderr.write("soak-feed: sent %d events in %.0f s\n" % (sent, time.time() - start))
sys.stderr.flush()
time.sleep(3600)
