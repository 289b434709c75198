"""The line protocol both workspace writers speak (`sqlwriter.py`, `mdwriter.py`).

`READY` once started; then one JSON command a line on stdin, answered on stdout with lines the
last of which is `OK <n>` — or `ERR <why>`, never fatal. Driven from Swift by
`Tests/TestSupport/WriterProcess.swift`.
"""

import json
import sys


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def serve(handle):
    """Runs `handle(command)` for every command line until stdin ends or it returns False."""
    say("READY")
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            if handle(json.loads(line)) is False:
                break
        except Exception as error:  # reported, never fatal
            say("ERR %s: %s" % (type(error).__name__, error))
