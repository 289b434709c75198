#!/usr/bin/env python3
"""Checks one guest's run (Tests/VM/guest.sh) against what `wallboard snapshot` draws.

  check.py OUT DEVICE WALLBOARD EVENTS [NAME]

OUT is the guest's output folder, DEVICE its display device (std, virtio, cirrus), WALLBOARD the
host's binary of the same build (or a command running it: the arm64 one under qemu-user),
EVENTS the JSON Lines the guest's board read, NAME what the lines call the guest (default
DEVICE). Prints a line per check and measurement, and returns non-zero when a check failed."""
import datetime
import os
import re
import subprocess
import sys
import tempfile

from PIL import Image, ImageChops

out, device, wallboard, events = sys.argv[1:5]
name = sys.argv[5] if len(sys.argv) > 5 else device
results = []  # (ok, text)
measures = []


def check(ok, text):
    results.append((bool(ok), text))
    print(("PASS " if ok else "FAIL ") + f"{name}: {text}", flush=True)


def read(name, default=""):
    try:
        with open(os.path.join(out, name)) as f:
            return f.read().strip()
    except OSError:
        return default


def snapshot(at, size):
    """The host's snapshot of `at` (guest seconds) at `size`, as an RGB image."""
    moment = datetime.datetime.fromtimestamp(at, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "s.png")
        with open(events, "rb") as stdin:
            subprocess.run(
                [wallboard, "snapshot", "--out", path, "--size", f"{size[0]}x{size[1]}", "--at", moment,
                 "--source", "jsonl:-", "--tz", "UTC", "--no-journal"],
                stdin=stdin, check=True, capture_output=True, timeout=120)
        return Image.open(path).convert("RGB")


def rgb565(image):
    """`image` as a 16-bit screen shows it: 5, 6 and 5 bits, widened again as QEMU does."""
    r, g, b = image.split()
    return Image.merge("RGB", (r.point(lambda v: v & 0xF8), g.point(lambda v: v & 0xFC), b.point(lambda v: v & 0xF8)))


def same_as_snapshot(name, bits):
    """Whether screendump `name` equals the snapshot of a second between its .t1 and .t2 files."""
    path = os.path.join(out, name + ".png")
    if not os.path.exists(path):
        return False, "no screendump"
    screen = Image.open(path).convert("RGB")
    t1, t2 = int(read(name + ".t1", "0")), int(read(name + ".t2", "0"))
    best = None
    for at in range(t1 - 1, t2 + 1):
        drawn = snapshot(at, screen.size)
        a, b = (rgb565(screen), rgb565(drawn)) if bits == 16 else (screen, drawn)
        box = ImageChops.difference(a, b).getbbox()
        if box is None:
            return True, f"{screen.size[0]}x{screen.size[1]} equals snapshot --at {at}" + (" (at 16 bits)" if bits == 16 else "")
        diff = sum(1 for p in ImageChops.difference(a, b).convert("L").getdata() if p)
        if best is None or diff < best[0]:
            best = (diff, at, box)
            ImageChops.difference(a, b).save(os.path.join(out, name + "-diff.png"))
    return False, f"{best[0]} pixels differ from snapshot --at {best[1]} (within {best[2]})"


def console_text_shows(name):
    path = os.path.join(out, name + ".png")
    if not os.path.exists(path):
        return False
    top = Image.open(path).convert("L").crop((0, 0, 200, 20))
    return top.getextrema()[1] > 128


fb_bits = 16 if device == "cirrus" else 32
for disp in ("drm", "fb"):
    err = read(disp + ".err")
    bits = fb_bits if disp == "fb" else 32
    ok, text = same_as_snapshot(disp, bits)
    check(ok, f"--display {disp}: the screen {text}")
    first = re.search(r"first frame (\d+) ms after start", err)
    check(first, f"--display {disp} says its device and first frame: {err.splitlines()[0] if err else '(nothing)'}")
    if first:
        measures.append((f"{disp} start to first frame", f"{first.group(1)} ms", "goal 500 ms"))
    check("Off" in read(disp + ".dpms-night") and "On" not in read(disp + ".dpms-night"),
          f"--display {disp}: the night's blank turns the output off (DPMS: {read(disp + '.dpms-night')})")
    check("On" in read(disp + ".dpms-morning") and "Off" not in read(disp + ".dpms-morning"),
          f"--display {disp}: the morning turns it on (DPMS: {read(disp + '.dpms-morning')})")
    ok, text = same_as_snapshot(disp + "-morning", bits)
    check(ok, f"--display {disp}: the morning's screen {text}")
    check(read(disp + ".rc") == "0", f"--display {disp}: exit status {read(disp + '.rc', '?')} after SIGTERM")
    check(console_text_shows(disp + "-after"), f"--display {disp}: the console shows its text again after the board")
    cpu = read(disp + ".cpu").split()
    if cpu:
        ticks, seconds, hz = map(int, cpu)
        measures.append((f"{disp} idle CPU over {seconds} s", f"{100 * ticks / hz / seconds:.2f} %", "goal 0.3 %"))

floor = read("floor").split()
if floor:
    measures.append(("--version (the binary's floor)", f"{floor[0]} ms", ""))
    measures.append(("snapshot at 1280x800", f"{floor[1]} ms", ""))
for label, value, goal in measures:
    print(f"MEASURE {name}: {label}: {value}" + (f" ({goal})" if goal else ""), flush=True)
failed = sum(1 for ok, _ in results if not ok)
print(f"{name}: {len(results) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
