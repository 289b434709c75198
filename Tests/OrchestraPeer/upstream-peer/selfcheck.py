#!/usr/bin/env python3
"""Checks the upstream-peer end to end over real QUIC + mutual TLS, in ~10 s.

    python3 Tests/OrchestraPeer/upstream-peer/selfcheck.py

Builds the peer and its client with scripts/upstream-peer.sh, makes certificates with
Tests/OrchestraPeer/make-certs.sh (or the openssl CLI directly when that script is missing),
then checks: framing and protobuf interop with Google's runtime both ways (Tests/OrchestraPeer/
codec.py, with unknown fields), every served tool's exact text, the _ui shapes, pagination,
errors, subscribe/unknown requests, mTLS (no certificate accepted, foreign CA refused, wrong ALPN
refused), the control channel (set, merge, delete, calls, stall, restart graceful and crash,
quit, stdin EOF) and the text/legacy flavours. Needs Debian's python3 with python3-protobuf and
protobuf-compiler (for codec.py). Ends with 'N passed, N failed'.
"""

import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PEER_DIR = os.path.dirname(HERE)
ROOT = os.path.dirname(os.path.dirname(PEER_DIR))
CODEC = os.path.join(PEER_DIR, "codec.py")
# codec.py needs Debian's python3 with python3-protobuf (as OrchestraPeer.swift uses it).
CODEC_PYTHON = os.environ.get("WALLBOARD_PYTHON", "/usr/bin/python3")

passed = failed = 0


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}: {detail}", flush=True)


def build():
    out = subprocess.run([os.path.join(ROOT, "scripts", "upstream-peer.sh")], check=True,
                         stdout=subprocess.PIPE, text=True).stdout.strip().splitlines()[-1]
    return out, os.path.join(os.path.dirname(out), "upstream-client")


def make_certs(d):
    script = os.path.join(PEER_DIR, "make-certs.sh")
    if os.path.exists(script):
        subprocess.run(["bash", script, d], check=True)
        return "wallboard-client", "other-client"

    def run(*a):
        subprocess.run(a, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def ca(name):
        run("openssl", "genpkey", "-algorithm", "ed25519", "-out", f"{d}/{name}.key")
        run("openssl", "req", "-x509", "-new", "-key", f"{d}/{name}.key", "-days", "365",
            "-subj", "/O=Orchestra/CN=Orchestra CA",
            "-addext", "basicConstraints=critical,CA:TRUE,pathlen:1",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign", "-out", f"{d}/{name}.crt")

    def leaf(name, issuer):
        run("openssl", "genpkey", "-algorithm", "ed25519", "-out", f"{d}/{name}.key")
        run("openssl", "req", "-new", "-key", f"{d}/{name}.key", "-subj", f"/O=Orchestra/CN={name}",
            "-out", f"{d}/{name}.csr")
        with open(f"{d}/{name}.ext", "w") as f:
            f.write("basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n"
                    "extendedKeyUsage=serverAuth,clientAuth\n"
                    f"subjectAltName=DNS:{name},DNS:localhost,IP:127.0.0.1,IP:::1\n")
        run("openssl", "x509", "-req", "-in", f"{d}/{name}.csr", "-CA", f"{d}/{issuer}.crt",
            "-CAkey", f"{d}/{issuer}.key", "-CAcreateserial", "-days", "365",
            "-extfile", f"{d}/{name}.ext", "-out", f"{d}/{name}.crt")

    ca("ca")
    ca("other-ca")
    leaf("server", "ca")
    leaf("wallboard-client", "ca")
    leaf("other-client", "other-ca")
    return "wallboard-client", "other-client"


DATA = {
    "projects": [
        {"slug": "wallboard", "name": "Wallboard", "description": "Status board",
         "created_at": "2026-03-01T09:00:00Z", "updated_at": "2026-03-10T09:00:00Z"},
        {"slug": "api", "name": "API", "created_at": "2026-03-02T09:00:00Z",
         "updated_at": "2026-03-02T09:00:00Z"},
    ],
    "features": [
        {"id": "FEAT-ABC", "project_id": "wallboard", "title": "Board layout",
         "description": "Grid of columns", "status": "in-progress", "priority": "P1",
         "kind": "feature", "assignee": "ana", "labels": ["ui", "sprint:s1"], "estimate": "M",
         "created_at": "2026-03-03T10:00:00Z", "updated_at": "2026-03-05T11:00:00Z",
         "body": "# Board layout\n\nGrid of columns\n\n\n---\n**in-progress -> in-testing** "
                 "(2026-03-05T11:00:00Z):\n## Changes\n- Sources/Board.swift\n"},
        {"id": "FEAT-ABD", "project_id": "wallboard", "title": "Crash on empty", "status": "todo",
         "priority": "P0", "kind": "bug", "depends_on": ["FEAT-ABC"],
         "created_at": "2026-03-04T10:00:00Z", "updated_at": "2026-03-04T10:00:00Z"},
        {"id": "FEAT-ABE", "project_id": "wallboard", "title": "Legacy item", "status": "in-review",
         "priority": "P3", "created_at": "2026-02-27T10:00:00Z",
         "updated_at": "2026-02-28T10:00:00Z"},
    ],
}


class Peer:
    def __init__(self, binary, certs, data, *extra):
        quiet = () if os.environ.get("UPSTREAM_PEER_DEBUG") else ("--quiet",)
        self.p = subprocess.Popen([binary, "--certs", certs, "--data", data, *quiet, *extra],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.buf = b""
        line = self.readline(10)
        assert line.startswith("PORT "), line
        self.port = int(line.split()[1])

    def readline(self, timeout):
        """One line from the peer's stdout, unbuffered (select() must see what is pending)."""
        deadline = time.time() + timeout
        fd = self.p.stdout.fileno()
        while b"\n" not in self.buf:
            r, _, _ = select.select([fd], [], [], max(0, deadline - time.time()))
            if not r:
                if os.environ.get("UPSTREAM_PEER_DEBUG"):
                    import signal
                    self.p.send_signal(signal.SIGQUIT)
                    time.sleep(1)
                raise TimeoutError("no reply from the peer")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise EOFError("peer exited")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode()

    def send(self, obj, timeout=10):
        self.p.stdin.write((json.dumps(obj) + "\n").encode())
        self.p.stdin.flush()
        lines = []
        while True:
            line = self.readline(timeout)
            if line.startswith("OK ") or line.startswith("ERR "):
                return lines, line
            lines.append(line)

    def calls(self, reset=False):
        lines, _ = self.send({"cmd": "calls", "reset": reset})
        return json.loads(lines[0])


class Client:
    """One upstream-client process = one QUIC connection; requests as JSON lines."""

    def __init__(self, binary, port, certs, *extra):
        self.p = subprocess.Popen([binary, "--addr", f"127.0.0.1:{port}", "--certs", certs, *extra],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)

    def ask(self, obj):
        self.p.stdin.write(json.dumps(obj) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            return {"error": "client exited: " + self.p.stderr.read().strip(), "response": None}
        return json.loads(line)

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=10)


def tool(c, name, args=None, **kw):
    obj = {"tool": name, **kw}
    if args is not None:
        obj["args"] = args
    out = c.ask(obj)
    return (out.get("response") or {}).get("tool_call"), out


FEATURE_TABLE_HEAD = ("| ID | Title | Status | Priority | Kind | Assignee |\n"
                      "|----|-------|--------|----------|------|----------|\n")


def main():
    peer_bin, client_bin = build()
    tmp = tempfile.mkdtemp(prefix="upstream-peer-check-")
    try:
        certs = os.path.join(tmp, "certs")
        os.makedirs(certs)
        good, foreign = make_certs(certs)
        data = os.path.join(tmp, "data.json")
        with open(data, "w") as f:
            json.dump(DATA, f)
        run_checks(peer_bin, client_bin, certs, data, good, foreign, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


def run_checks(peer_bin, client_bin, certs, data, good, foreign, tmp):
    peer = Peer(peer_bin, certs, data)
    c = Client(client_bin, peer.port, certs, "--cert-name", good)

    # ---- health, list_projects
    out = c.ask({"kind": "health", "id": "h-1"})
    check("health", out["response"] == {"request_id": "h-1", "health": {"status": "STATUS_HEALTHY", "message": "orchestrator ok"}}, out)
    tc, _ = tool(c, "list_projects", {})
    check("list_projects text", tc == {"success": True, "result": {"text":
          "## Projects (2)\n\n- **API** (`api`)\n- **Wallboard** (`wallboard`) — Status board\n"}}, tc)

    # ---- list_features (ui flavour): exact text, _ui shape
    tc, _ = tool(c, "list_features", {"project_id": "wallboard"})
    text = tc["result"]["text"]
    want = ("## Features (3)\n\n" + FEATURE_TABLE_HEAD +
            "| FEAT-ABC | Board layout | in-progress | P1 | feature | ana |\n"
            "| FEAT-ABD | Crash on empty | todo | P0 | bug | — |\n"
            "| FEAT-ABE | Legacy item | in-review | P3 | feature | — |\n"
            "\n*Showing 1-3 of 3 total*\n")
    check("list_features text", text == want, repr(text))
    ui = tc["result"]["_ui"]
    check("list_features _ui", ui["view"] == "table" and ui["entity_type"] == "feature"
          and ui["pagination"] == {"total": 3, "limit": 50, "offset": 0}
          and [d["id"] for d in ui["data"]] == ["FEAT-ABC", "FEAT-ABD", "FEAT-ABE"]
          and ui["data"][0]["labels"] == ["ui", "sprint:s1"] and ui["data"][1]["depends_on"] == ["FEAT-ABC"]
          and "kind" not in ui["data"][2] and ui["data"][2]["description"] == ""
          and ui["actions"][0]["tool"] == "create_feature", ui)

    # pagination
    tc, _ = tool(c, "list_features", {"project_id": "wallboard", "limit": 2, "offset": 1})
    check("pagination page", tc["result"]["text"].endswith("\n*Showing 2-3 of 3 total*\n")
          and "(2)" in tc["result"]["text"] and tc["result"]["_ui"]["pagination"] == {"total": 3, "limit": 2, "offset": 1}, tc)
    tc, _ = tool(c, "list_features", {"project_id": "wallboard", "offset": 5})
    check("pagination past end", tc["result"]["text"] == "## Features\n\nNo features found.\n\n*Showing 6-5 of 3 total*\n"
          and tc["result"]["_ui"]["data"] is None, tc)
    tc, _ = tool(c, "list_features", {"project_id": "wallboard", "limit": 1000})
    check("limit clamped to 200", tc["result"]["_ui"]["pagination"]["limit"] == 200, tc)
    # filters
    tc, _ = tool(c, "list_features", {"project_id": "wallboard", "status": "todo"})
    check("status filter", tc["result"]["text"].startswith("## Features (todo) (1)\n") and "FEAT-ABD" in tc["result"]["text"], tc)
    tc, _ = tool(c, "list_features", {"project_id": "wallboard", "kind": "feature"})
    check("kind filter counts empty kind as feature", tc["result"]["text"].startswith("## Features (kind=feature) (2)\n"), tc)
    tc, _ = tool(c, "list_features", {"project_id": "wallboard", "status": "todo", "kind": "bug"})
    check("both filters header", tc["result"]["text"].startswith("## Features (todo, kind=bug) (1)\n"), tc)
    tc, _ = tool(c, "list_features", {"project_id": "nope"})
    check("unknown project lists nothing", tc["success"] and tc["result"]["text"] ==
          "## Features\n\nNo features found.\n\n*Showing 1-0 of 0 total*\n" and tc["result"]["_ui"]["data"] is None, tc)

    # ---- get_feature
    tc, _ = tool(c, "get_feature", {"project_id": "wallboard", "feature_id": "FEAT-ABC"})
    want = ("### FEAT-ABC — Board layout\n- **Status:** in-progress\n- **Priority:** P1\n- **Kind:** feature\n"
            "- **Assignee:** ana\n- **Estimate:** M\n- **Labels:** ui, sprint:s1\n\nGrid of columns\n"
            "\n---\n\n" + DATA["features"][0]["body"])
    check("get_feature text", tc["result"]["text"] == want, repr(tc["result"]["text"]))
    check("get_feature _ui", tc["result"]["_ui"]["view"] == "detail_card" and tc["result"]["_ui"]["data"]["id"] == "FEAT-ABC"
          and tc["result"]["_ui"]["data"]["version"] == 0 and "body" not in tc["result"]["_ui"]["data"], tc)
    tc, _ = tool(c, "get_feature", {"project_id": "wallboard", "feature_id": "FEAT-ABE"})
    check("get_feature default body, no kind line", tc["result"]["text"] ==
          "### FEAT-ABE — Legacy item\n- **Status:** in-review\n- **Priority:** P3\n\n---\n\n# Legacy item\n\n\n", repr(tc))
    tc, _ = tool(c, "get_feature", {"project_id": "wallboard", "feature_id": "FEAT-XYZ"})
    check("get_feature not found", tc == {"error_code": "not_found", "error_message": "parse feature wallboard/FEAT-XYZ: no metadata"}, tc)
    tc, _ = tool(c, "get_feature", {"project_id": "wallboard"})
    check("get_feature validation", tc == {"error_code": "validation_error", "error_message": "missing required fields: feature_id"}, tc)
    tc, _ = tool(c, "list_features")
    check("no arguments at all", tc == {"error_code": "validation_error", "error_message": "arguments are required: project_id"}, tc)
    tc, _ = tool(c, "list_features", {"project_id": 7})
    check("non-string argument is missing", tc["error_code"] == "validation_error", tc)

    # ---- the other read tools
    tc, _ = tool(c, "search_features", {"project_id": "wallboard", "query": "GRID"})
    check("search_features", tc["result"]["text"].startswith('## Search results for "grid" (1)\n') and "FEAT-ABC" in tc["result"]["text"], tc)
    tc, _ = tool(c, "get_project_status", {"project_id": "wallboard"})
    t = tc["result"]["text"]
    check("get_project_status", t.startswith("## Project: Wallboard\n- **Slug:** wallboard\n- **Description:** Status board\n"
          "- **Created:** 2026-03-01T09:00:00Z\n\n| Status | Count |\n|--------|-------|\n") and t.endswith("| **Total** | **3** |\n")
          and tc["result"]["_ui"]["data"]["status_counts"] == {"in-progress": 1, "todo": 1, "in-review": 1}
          and tc["result"]["_ui"]["data"]["project"]["slug"] == "wallboard", tc)
    tc, _ = tool(c, "get_project_status", {"project_id": "nope"})
    check("get_project_status missing", tc == {"error_code": "storage_error", "error_message": "parse project nope: no metadata"}, tc)
    tc, _ = tool(c, "get_progress", {"project_id": "wallboard"})
    check("get_progress", tc["result"]["text"].startswith("## Progress: wallboard\n\n- **Total features:** 3\n- **Done:** 0\n- **Completion:** 0.0%\n\n| Status | Count |"), tc)
    tc, _ = tool(c, "get_workflow_status", {"project_id": "wallboard"})
    check("get_workflow_status", tc["result"]["text"].startswith("## Workflow Status: wallboard\n\n| Status | Count |")
          and tc["result"]["_ui"]["view"] == "kanban" and len(tc["result"]["_ui"]["groups"]) == 7, tc)
    tc, _ = tool(c, "get_blocked_features", {"project_id": "wallboard"})
    check("get_blocked_features", tc["result"]["text"] == "## Blocked Features (1)\n\n- **FEAT-ABD** (Crash on empty) blocked by: FEAT-ABC\n", tc)
    tc, _ = tool(c, "get_review_queue", {"project_id": "wallboard"})
    check("get_review_queue", tc["result"]["text"].startswith("## Review Queue (1)\n") and tc["result"]["_ui"]["data"][0]["id"] == "FEAT-ABE", tc)
    tc, _ = tool(c, "get_review_queue", {"project_id": "api"})
    check("empty review queue", tc["result"]["text"] == "## Review Queue\n\nNo features found.\n" and tc["result"]["_ui"]["data"] == [], tc)

    # ---- unknown tools, other requests
    tc, _ = tool(c, "board_snapshot", {"project_id": "wallboard"})
    check("board_snapshot is not a tool", tc == {"error_code": "tool_not_found", "error_message": 'no plugin provides tool "board_snapshot"'}, tc)
    tc, _ = tool(c, "create_feature", {"project_id": "wallboard", "title": "x"})
    check("write tools are not served", tc["error_code"] == "peer_unimplemented", tc)
    out = c.ask({"kind": "subscribe", "topic": "features", "id": "s-1"})
    check("subscribe: empty response, stream closed", out["response"] == {"request_id": "s-1"} and "error" not in out, out)
    out = c.ask({"kind": "boot", "id": "b-1"})
    check("boot: unknown_request", out["response"] == {"request_id": "b-1", "tool_call": {"error_code": "unknown_request", "error_message": "unrecognized request type"}}, out)
    out = c.ask({"kind": "list_tools"})
    names = [t["name"] for t in out["response"]["list_tools"]["tools"]]
    check("list_tools", "list_features" in names and "get_feature" in names and len(names) == 9, names)
    out = c.ask({"kind": "health", "no_fin": True, "id": "nf"})
    check("answered without FIN", (out["response"] or {}).get("request_id") == "nf", out)
    out = c.ask({"kind": "health", "oversize": True})
    check("oversized frame: no reply", out["response"] is None, out)
    out = c.ask({"raw_hex": "0a02ff01"})
    check("invalid UTF-8 request id: no reply", out["response"] is None, out)
    out = c.ask({"kind": "health", "id": "after"})
    check("connection survives bad streams", (out["response"] or {}).get("request_id") == "after", out)

    # A stream whose client never sends FIN never completes, so its credit is never returned:
    # quic-go's default limit of 100 incoming streams (upstream sets none) then stalls the
    # connection. Always finish the write side.
    nf = Client(client_bin, peer.port, certs, "--cert-name", good, "--timeout", "1s")
    answers = [nf.ask({"kind": "health", "no_fin": True}) for _ in range(101)]
    check("100 streams without FIN, then stuck", all(a["response"] for a in answers[:100]) and answers[100]["response"] is None,
          [a for a in answers if not a["response"]][:2])
    nf.close()

    # ---- interop with Google's protobuf runtime (codec.py), unknown fields included
    reqs = os.path.join(tmp, "req.frames")
    resps = os.path.join(tmp, "resp.frames")
    lines = "\n".join(json.dumps(x) for x in [
        {"request_id": "g1", "tool_call": {"tool_name": "list_features",
                                            "arguments": {"project_id": "wallboard", "limit": 2, "nested": {"a": [1, True, None, "x"]}}}},
        {"request_id": "g2", "health": {}},
        {"request_id": "g3", "tool_call": {"tool_name": "get_feature", "arguments": {"project_id": "wallboard", "feature_id": "FEAT-ABD"}}},
    ]) + "\n"
    with open(reqs, "wb") as f:
        f.write(subprocess.run([CODEC_PYTHON, CODEC, "encode", "PluginRequest", "--unknown-fields"],
                               input=lines.encode(), stdout=subprocess.PIPE, check=True).stdout)
    subprocess.run([client_bin, "--addr", f"127.0.0.1:{peer.port}", "--certs", certs, "--cert-name", good,
                    "--frames-in", reqs, "--frames-out", resps], check=True)
    with open(resps, "rb") as f:
        decoded = subprocess.run([CODEC_PYTHON, CODEC, "decode", "PluginResponse"], stdin=f,
                                 stdout=subprocess.PIPE, check=True).stdout.decode().splitlines()
    decoded = [json.loads(x) for x in decoded]
    check("interop: three responses", [d["request_id"] for d in decoded] == ["g1", "g2", "g3"], decoded)
    check("interop: list_features page via Google runtime",
          decoded[0]["tool_call"]["success"] and decoded[0]["tool_call"]["result"]["_ui"]["pagination"]["limit"] == 2.0
          and decoded[0]["tool_call"]["result"]["text"].endswith("*Showing 1-2 of 3 total*\n"), decoded[0])
    # (codec.py's proto names the enum values HEALTHY…; upstream's STATUS_HEALTHY…: same number 1)
    check("interop: health", decoded[1]["health"] == {"status": "HEALTHY", "message": "orchestrator ok"}, decoded[1])
    check("interop: get_feature depends_on", decoded[2]["tool_call"]["result"]["_ui"]["data"]["depends_on"] == ["FEAT-ABC"], decoded[2])

    # ---- mTLS
    nc = Client(client_bin, peer.port, certs, "--no-client-cert")
    out = nc.ask({"kind": "health"})
    check("no client certificate accepted", (out["response"] or {}).get("health", {}).get("status") == "STATUS_HEALTHY", out)
    nc.close()
    fc = Client(client_bin, peer.port, certs, "--cert-name", foreign, "--timeout", "2s")
    out = fc.ask({"kind": "health"})
    check("foreign-CA client certificate refused", out["response"] is None and out.get("error"), out)
    fc.close()
    ac = subprocess.run([client_bin, "--addr", f"127.0.0.1:{peer.port}", "--certs", certs, "--cert-name", good, "--alpn", "h3", "--timeout", "2s"],
                        input="", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check("wrong ALPN refused", ac.returncode != 0 and "dial" in ac.stderr, ac.stderr)

    # ---- control channel
    peer.calls(reset=True)
    _, ok = peer.send({"cmd": "set", "feature": {"id": "FEAT-ZZZ", "project_id": "wallboard", "title": "New one", "status": "todo"}})
    check("set", ok == "OK set", ok)
    tc, _ = tool(c, "list_features", {"project_id": "wallboard"})
    check("set visible", "| FEAT-ZZZ | New one | todo | P2 | feature | — |" in tc["result"]["text"], tc)
    _, ok = peer.send({"cmd": "set", "merge": True, "feature": {"id": "FEAT-ZZZ", "project_id": "wallboard", "status": "done"}})
    tc, _ = tool(c, "get_feature", {"project_id": "wallboard", "feature_id": "FEAT-ZZZ"})
    check("merge keeps other fields", ok == "OK set" and "- **Status:** done\n" in tc["result"]["text"] and "New one" in tc["result"]["text"], tc)
    _, ok = peer.send({"cmd": "delete", "project": "wallboard", "id": "FEAT-ZZZ"})
    tc, _ = tool(c, "get_feature", {"project_id": "wallboard", "feature_id": "FEAT-ZZZ"})
    check("delete", ok == "OK delete" and tc["error_code"] == "not_found", tc)
    _, err = peer.send({"cmd": "delete", "project": "wallboard", "id": "FEAT-ZZZ"})
    check("delete unknown is ERR", err.startswith("ERR delete"), err)
    _, err = peer.send({"cmd": "bogus"})
    check("unknown command is ERR", err == "ERR bogus unknown command", err)
    calls = peer.calls()
    check("calls counts by tool and arguments", calls["tool_calls"] == 3 and calls["by_tool"] == {"list_features": 1, "get_feature": 2}
          and {"tool": "get_feature", "arguments": {"feature_id": "FEAT-ZZZ", "project_id": "wallboard"}, "count": 2} in calls["by_call"]
          and calls["connections"]["open"] == 1, calls)
    lines, ok = peer.send({"cmd": "snapshot"})
    snap = json.loads(lines[0])
    check("snapshot", ok == "OK snapshot" and [p["slug"] for p in snap["projects"]] == ["api", "wallboard"] and len(snap["features"]) == 3, snap)

    peer.send({"cmd": "stall", "seconds": 0.6})
    out = c.ask({"kind": "health"})
    check("stall delays answers", out["ms"] >= 450, out)

    # restart, graceful: the open connection is closed by the peer; a new one works, same port
    port = peer.port
    t0 = time.time()
    _, ok = peer.send({"cmd": "restart", "down_seconds": 0.5})
    check("restart", ok == "OK restart" and time.time() - t0 >= 0.5, ok)
    out = c.ask({"kind": "health"})
    check("old connection closed after restart", out["response"] is None and out.get("error"), out)
    c.close()
    c = Client(client_bin, port, certs, "--cert-name", good)
    out = c.ask({"kind": "health"})
    check("same port after restart", (out["response"] or {}).get("health", {}).get("message") == "orchestrator ok", out)
    # restart, crash: the client hears nothing; its request times out
    c2 = Client(client_bin, port, certs, "--cert-name", good, "--timeout", "1s")
    check("second connection up", (c2.ask({"kind": "health"})["response"] or {}).get("health") is not None)
    _, ok = peer.send({"cmd": "restart", "down_seconds": 0, "crash": True})
    out = c2.ask({"kind": "health"})
    check("crash: silent, request times out", ok == "OK restart" and out["response"] is None and bool(out.get("error")), out)
    c2.close()
    c.close()

    _, ok = peer.send({"cmd": "quit"})
    check("quit", ok == "OK quit" and peer.p.wait(timeout=5) == 0, ok)

    # stdin EOF ends the peer
    p2 = Peer(peer_bin, certs, data, "--flavor", "text")
    c = Client(client_bin, p2.port, certs, "--cert-name", good)
    tc, _ = tool(c, "list_features", {"project_id": "wallboard", "limit": 1})
    check("text flavour: no _ui, pagination", "_ui" not in tc["result"] and tc["result"]["text"].endswith("*Showing 1-1 of 3 total*\n"), tc)
    c.close()
    p2.p.stdin.close()
    check("stdin EOF exits", p2.p.wait(timeout=5) == 0)
    p3 = Peer(peer_bin, certs, data, "--flavor", "legacy", "--unknown-tool-code", "unknown_tool")
    c = Client(client_bin, p3.port, certs, "--cert-name", good)
    tc, _ = tool(c, "list_features", {"project_id": "wallboard", "limit": 1})
    check("legacy flavour: everything, no footer", tc["result"]["text"].startswith("## Features (3)\n") and "Showing" not in tc["result"]["text"], tc)
    tc, _ = tool(c, "board_snapshot", {})
    check("--unknown-tool-code", tc["error_code"] == "unknown_tool", tc)
    c.close()
    p3.p.stdin.close()
    p3.p.wait(timeout=5)


if __name__ == "__main__":
    main()
