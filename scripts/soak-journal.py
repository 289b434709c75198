#!/usr/bin/env python3
"""`make soak`'s journal watcher: the largest size a journal (its file, -wal and -shm together)
is seen at, polled every 5 ms while the process PID lives. A compaction's log lasts
milliseconds before it is cut back: a sample a second would miss it. Writes each new largest
size to OUT (bytes, then the three parts), so that OUT holds the peak when the board stops.

Arguments: PID JOURNAL OUT."""
import os
import sys
import time


def size(path):
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def main():
    pid, journal, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    largest = -1
    while True:
        try:
            os.kill(pid, 0)
        except OSError:
            return
        parts = [size(journal + suffix) for suffix in ("", "-wal", "-shm")]
        total = sum(parts)
        if total > largest:
            largest = total
            with open(out + ".tmp", "w") as f:
                f.write(" ".join(str(n) for n in [total] + parts) + "\n")
            os.replace(out + ".tmp", out)
        time.sleep(0.005)


if __name__ == "__main__":
    main()
