"""A second process that writes an SQLite database the way Orchestra's storage plugin does.

For Wallboard's tests: it opens (or creates) the file with the plugin's pragmas (WAL,
busy_timeout 5000, foreign_keys, synchronous NORMAL), then runs commands, one JSON object per
line on stdin, answering each with one line: `OK <n>` (rows changed) or `ERR <message>`.

  {"sql": "...", "args": [...]}   one statement, autocommit (the plugin writes this way)
  {"script": "..."}               several statements (DDL)
  {"begin": "immediate"}          hold a write lock (BEGIN IMMEDIATE) until {"commit": true}
  {"commit": true}
  {"query": "...", "args": [...]} answers `ROW <json>` lines, then `OK <count>`
  {"quit": true}

It ends when stdin ends, so a test that dies takes it along. Python's own sqlite3 module is an
implementation independent of the one under test.
"""

import json
import sqlite3
import sys


def main():
    path = sys.argv[1]
    db = sqlite3.connect(path, isolation_level=None, timeout=5.0)
    for pragma in ("journal_mode=WAL", "busy_timeout=5000", "foreign_keys=ON", "synchronous=NORMAL"):
        db.execute(f"PRAGMA {pragma}")

    def say(text):
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    say("READY")
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            c = json.loads(line)
            if c.get("quit"):
                say("OK 0")
                break
            if "script" in c:
                db.executescript(c["script"])
                say("OK 0")
            elif "begin" in c:
                db.execute("BEGIN IMMEDIATE" if c["begin"] == "immediate" else "BEGIN")
                say("OK 0")
            elif c.get("commit"):
                db.execute("COMMIT")
                say("OK 0")
            elif "query" in c:
                rows = db.execute(c["query"], c.get("args", [])).fetchall()
                for r in rows:
                    say("ROW " + json.dumps(list(r)))
                say(f"OK {len(rows)}")
            else:
                cur = db.execute(c["sql"], c.get("args", []))
                say(f"OK {cur.rowcount}")
        except Exception as error:  # reported, never fatal
            say(f"ERR {type(error).__name__}: {error}")
    db.close()


if __name__ == "__main__":
    main()
