"""A second process that writes an SQLite database the way Orchestra's storage plugin does.

For Wallboard's tests: it opens (or creates) the file with the plugin's pragmas (WAL,
busy_timeout 5000, foreign_keys, synchronous NORMAL), then runs commands, one JSON object per
line on stdin, answering each with one line: `OK <n>` (rows changed) or `ERR <message>`.

  {"sql": "...", "args": [...]}   one statement, autocommit (the plugin writes this way)
  {"script": "..."}               several statements (DDL)
  {"begin": "immediate"}          hold a write lock (BEGIN IMMEDIATE) until {"commit": true}
  {"commit": true}
  {"query": "...", "args": [...]} answers `ROW <json>` lines, then `OK <count>`
  {"advance": {"id", "kind", "to", "ts", "text"}}
                                  a feature tool's move: the entry of `kind` appended to the
                                  body as that tool generation writes it (see `trail_entry`),
                                  then the plugin's write (status, body, version + 1,
                                  updated_at = ts) and its change-log row
  {"quit": true}

It ends when stdin ends, so a test that dies takes it along. Python's own sqlite3 module is an
implementation independent of the one under test.
"""

import json
import sqlite3
import sys

from lineprotocol import say, serve


def trail_entry(kind, frm, to, ts, text):
    """What a generation of tools.features appends to a feature's body for a move
    (orchestra-storage.md section 4): `frm -> to` at `ts` with `text` (evidence, a reason, a
    comment, the kind of a gate-skipped feature)."""
    if kind == "gated":  # >= v1.0.3 gated moves; v1.0.0-2 free moves with evidence
        return f"\n\n---\n**{frm} -> {to}** ({ts}):\n{text}\n"
    if kind == "gate-skipped":  # bug / hotfix / testcase
        return f"\n\n---\n**{frm} -> {to}** ({ts}): Gate skipped for kind={text}\n"
    if kind == "rejected":
        return f"\n\n---\n**Rejected ({frm} -> needs-edits)** ({ts}): {text}\n"
    if kind == "self-review":  # v1.0.0-2
        return f"\n\n---\n**Self-Review ({frm} -> in-review)** ({ts}):\n{text}"
    if kind == "review":  # submit_review: a line only when there is a comment
        status = "approved" if to == "done" else "needs-edits"
        return f"\n\n---\n**Review ({status})** ({ts}): {text}\n" if text else ""
    if kind == "v0.1":
        return f"\n\n---\n**{frm} -> {to}**: {text}"
    if kind == "v0.1-review":
        return f"\n\n---\n**Review ({'approved' if to == 'done' else 'needs-edits'})**: {text}"
    if kind == "v0.1-rejected":
        return f"\n\n---\n**Rejected ({frm} -> needs-edits)**: {text}"
    if kind == "note":  # save_note: no move
        return f"\n\n## Note ({ts})\n\n{text}\n"
    if kind == "silent":  # set_current_feature, label and estimate changes: no line
        return ""
    raise ValueError(f"unknown trail entry kind {kind!r}")


def advance(db, a):
    """A feature tool's move followed by the plugin's three autocommit statements."""
    row = db.execute("SELECT version, status, body FROM features WHERE id = ?", [a["id"]]).fetchone()
    if row is None:
        raise KeyError(f"no feature {a['id']}")
    version, status, body = row
    to = status if a["kind"] == "note" else a["to"]
    body = (body or "") + trail_entry(a["kind"], status, to, a["ts"], a.get("text", ""))
    db.execute(
        "UPDATE features SET status = ?, body = ?, version = ?, updated_at = ? WHERE id = ?",
        [to, body, version + 1, a["ts"], a["id"]],
    )
    db.execute(
        "INSERT INTO change_log (entity_type, entity_id, action, version, timestamp) "
        "VALUES ('features', ?, 'upsert', ?, ?)",
        [a["id"], version + 1, a["ts"]],
    )


def main():
    path = sys.argv[1]
    db = sqlite3.connect(path, isolation_level=None, timeout=5.0)
    for pragma in ("journal_mode=WAL", "busy_timeout=5000", "foreign_keys=ON", "synchronous=NORMAL"):
        db.execute(f"PRAGMA {pragma}")

    def handle(c):
        if c.get("quit"):
            say("OK 0")
            return False
        if "script" in c:
            db.executescript(c["script"])
            say("OK 0")
        elif "begin" in c:
            db.execute("BEGIN IMMEDIATE" if c["begin"] == "immediate" else "BEGIN")
            say("OK 0")
        elif c.get("commit"):
            db.execute("COMMIT")
            say("OK 0")
        elif "advance" in c:
            advance(db, c["advance"])
            say("OK 1")
        elif "query" in c:
            rows = db.execute(c["query"], c.get("args", [])).fetchall()
            for r in rows:
                say("ROW " + json.dumps(list(r)))
            say(f"OK {len(rows)}")
        else:
            cur = db.execute(c["sql"], c.get("args", []))
            say(f"OK {cur.rowcount}")

    serve(handle)
    db.close()


if __name__ == "__main__":
    main()
