#!/usr/bin/env python3
"""Self-check of the Orchestra test peer: starts peer.py, talks to it with a raw socket client
written against orchestra.proto, and exercises every behaviour and control command once.

  python3 Tests/OrchestraPeer/selfcheck.py      exit 0 when every check passes, 1 otherwise
"""

import json
import os
import socket
import struct
import subprocess
import sys
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from google.protobuf import json_format  # noqa: E402

import pb  # noqa: E402

O = pb.orchestra
SHORT = 0.4  # how long "nothing arrives" is watched for


class Peer:
    def __init__(self, *args):
        self.proc = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "peer.py"), "--port", "0", "--quiet", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline().strip()
        assert line.startswith("PORT "), f"first line was {line!r}"
        self.port = int(line.split()[1])

    def send(self, command):
        """Writes one control line; returns the reply lines up to and including OK/ERR."""
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            assert line, "peer exited"
            lines.append(line.rstrip("\n"))
            if line.startswith(("OK ", "ERR ")):
                assert line.startswith("OK "), f"{command} → {lines}"
                return lines

    def stop(self):
        if self.proc.poll() is None:
            try:
                self.send({"cmd": "quit"})
            except (AssertionError, BrokenPipeError):
                pass
            try:
                self.proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def connect(port, timeout=3.0):
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    return sock


def request(port, **fields):
    """One short-connection RPC: writes one PluginRequest, reads one PluginResponse."""
    req = O.PluginRequest(request_id="r-short")
    json_format.ParseDict(fields, req)
    with connect(port) as sock:
        sock.sendall(pb.frame(req))
        body = pb.read_frame(sock)
    assert body is not None, "no response"
    response = O.PluginResponse()
    response.ParseFromString(body)
    return response


def subscribe(sock, sid, topic):
    req = O.PluginRequest(request_id=f"r-{sid}")
    req.subscribe.subscription_id = sid
    req.subscribe.topic = topic
    sock.sendall(pb.frame(req))


def read_response(sock, timeout=3.0):
    sock.settimeout(timeout)
    body = pb.read_frame(sock)
    assert body is not None, "stream ended"
    response = O.PluginResponse()
    response.ParseFromString(body)
    return response


def nothing_arrives(sock, seconds=SHORT):
    sock.settimeout(seconds)
    try:
        data = sock.recv(1)
    except socket.timeout:
        return True
    assert False, f"unexpected bytes {data!r}" if data else "unexpected end of stream"


def wait_for_connections(peer, count, timeout=3.0):
    """The peer notices a client's close on its own thread: poll its count for a while."""
    deadline = time.monotonic() + timeout
    while (got := peer.send({"cmd": "connections"})) != [str(count), "OK connections"]:
        assert time.monotonic() < deadline, f"connections: {got}, expected {count}"
        time.sleep(0.05)


def event(topic, payload, **extra):
    return {"cmd": "publish", "event": dict(topic=topic, payload=payload, **extra)}


# The checks ------------------------------------------------------------------------------------

def check_health(peer, ctx):
    r = request(peer.port, health={})
    assert r.WhichOneof("response") == "health", r
    assert r.health.status == O.HealthResult.HEALTHY and r.health.message == "ok", r
    assert r.request_id == "r-short"


def check_subscribe_two_topics_one_connection(peer, ctx):
    sock = connect(peer.port)
    ctx["stream"] = sock
    subscribe(sock, "s1", "feature.created")
    subscribe(sock, "s2", "sprint.created")
    for sid, topic in (("s1", "feature.created"), ("s2", "sprint.created")):
        ack = read_response(sock)
        d = ack.event_delivery
        assert ack.WhichOneof("response") == "event_delivery", ack
        assert [f.name for f, _ in d.ListFields()] == ["subscription_id", "topic"], d
        assert (d.subscription_id, d.topic) == (sid, topic), d
    assert peer.send({"cmd": "connections"}) == ["1", "OK connections"]


def check_deliveries(peer, ctx):
    sock = ctx["stream"]
    peer.send(event("feature.created", {"id": "F1", "title": "Login", "status": "todo", "labels": ["a", "ü"]},
                    time="2026-11-03T09:15:00Z", event_type="created", source="tools.features"))
    peer.send(event("feature.updated", {"id": "F1", "status": "in-progress"}))  # not subscribed
    peer.send(event("sprint.created", {"id": "S1", "name": "One", "start_date": "2026-11-02",
                                       "end_date": "2026-11-13", "feature_ids": ["F1"]}, seq=10))
    first = read_response(sock).event_delivery
    assert (first.subscription_id, first.topic, first.event_type) == ("s1", "feature.created", "created"), first
    payload = json_format.MessageToDict(first.payload)
    assert payload == {"id": "F1", "title": "Login", "status": "todo", "labels": ["a", "ü"], "seq": 1}, payload
    assert first.source_plugin == "tools.features" and first.timestamp.ToJsonString() == "2026-11-03T09:15:00Z"
    second = read_response(sock).event_delivery
    assert (second.subscription_id, second.topic) == ("s2", "sprint.created"), second
    assert second.payload.fields["seq"].number_value == 10, second
    assert second.timestamp.seconds > 1_700_000_000  # stamped now when the event has no time
    nothing_arrives(sock)


def check_no_past_events(peer, ctx):
    with connect(peer.port) as sock:
        subscribe(sock, "late", "feature.created")
        ack = read_response(sock)
        assert ack.event_delivery.subscription_id == "late"
        nothing_arrives(sock)


def check_board_snapshot(peer, ctx):
    peer.send(event("sprint.started", {"id": "S1"}))
    peer.send(event("workflow.transitioned", {"feature_id": "F1", "to": "in-review"}))
    peer.send(event("feature.created", {"id": "F2", "title": "Logout", "status": "todo"}))
    peer.send(event("sprint.scope_changed", {"sprint_id": "S1", "added": ["F2"]}))
    peer.send(event("feature.created", {"id": "F2", "title": "dup"}, seq=12))  # duplicate: ignored
    # The stream sees both feature.created events: a duplicate is still delivered (the client
    # must drop it), it only leaves the truth alone.
    seqs = [read_response(ctx["stream"]).event_delivery.payload.fields["seq"].number_value for _ in range(2)]
    assert seqs == [13, 12], seqs
    r = request(peer.port, tool_call={"tool_name": "board_snapshot", "arguments": {}})
    assert r.WhichOneof("response") == "tool_call" and r.tool_call.success, r
    got = json_format.MessageToDict(r.tool_call.result)
    truth = json.loads(peer.send({"cmd": "snapshot"})[0])
    assert got == truth, (got, truth)
    assert truth["seq"] == 14 and truth["active_sprint_id"] == "S1", truth
    assert [f["status"] for f in truth["features"]] == ["in-review", "todo"], truth
    assert truth["sprints"][0]["feature_ids"] == ["F1", "F2"], truth


def check_unknown_tool(peer, ctx):
    r = request(peer.port, tool_call={"tool_name": "nope"})
    assert not r.tool_call.success and r.tool_call.error_code == "unknown_tool", r


def check_unsubscribe(peer, ctx):
    sock = ctx["stream"]
    req = O.PluginRequest(request_id="r-u")
    req.unsubscribe.subscription_id = "s2"
    sock.sendall(pb.frame(req))
    # A health request on the same stream is answered after the unsubscribe has been handled.
    sock.sendall(pb.frame(O.PluginRequest(request_id="barrier", health={})))
    assert read_response(sock).request_id == "barrier"
    peer.send(event("sprint.created", {"id": "S2", "name": "Two", "start_date": "2026-11-16",
                                       "end_date": "2026-11-27"}))
    peer.send(event("feature.created", {"id": "F3", "title": "x", "status": "todo"}))
    d = read_response(sock).event_delivery
    assert (d.subscription_id, d.payload.fields["id"].string_value) == ("s1", "F3"), d


def check_inject_unknown_oneof(peer, ctx):
    peer.send({"cmd": "inject", "response": {"request_id": "x", "register": {}}, "unknown_fields": True})
    r = read_response(ctx["stream"])
    assert r.WhichOneof("response") == "register", r
    assert pb.UNKNOWN_FIELDS in r.SerializeToString(), "unknown fields were not sent"


def check_garbage(peer, ctx):
    sock = ctx["stream"]
    peer.send({"cmd": "garbage"})
    sock.settimeout(3)
    body = pb.read_frame(sock)
    try:
        O.PluginResponse().ParseFromString(body)
    except Exception:
        pass
    else:
        assert False, f"garbage parsed: {body!r}"


def check_oversize(peer, ctx):
    sock = ctx["stream"]
    peer.send({"cmd": "oversize"})
    sock.settimeout(3)
    assert pb.recv_exact(sock, 4) == b"\x7f\xff\xff\xff"
    nothing_arrives(sock)
    sock.close()
    wait_for_connections(peer, 0)


def check_stall(peer, ctx):
    sock = connect(peer.port)
    subscribe(sock, "st", "feature.updated")
    read_response(sock)
    peer.send({"cmd": "stall", "seconds": 1.0})
    started = time.monotonic()
    peer.send(event("feature.updated", {"id": "F3", "status": "in-progress"}))
    fresh = connect(peer.port)  # connects (the kernel accepts) but gets no answer while stalled
    fresh.sendall(pb.frame(O.PluginRequest(request_id="h", health={})))
    nothing_arrives(sock, 0.5)
    nothing_arrives(fresh, 0.1)
    d = read_response(sock).event_delivery
    assert d.payload.fields["status"].string_value == "in-progress" and time.monotonic() - started >= 0.9
    assert read_response(fresh).health.status == O.HealthResult.HEALTHY
    fresh.close()
    ctx["stream"] = sock


def check_die_mid_frame(peer, ctx):
    sock = ctx["stream"]
    peer.send({"cmd": "die_mid_frame"})
    peer.send(event("feature.updated", {"id": "F3", "status": "done"}))
    sock.settimeout(3)
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    (length,) = struct.unpack(">I", data[:4])
    assert 0 < len(data) < 4 + length, f"{len(data)} bytes of a {4 + length}-byte frame"
    assert peer.send({"cmd": "connections"}) == ["0", "OK connections"]


def check_drop(peer, ctx):
    sock = connect(peer.port)
    subscribe(sock, "d", "feature.updated")
    read_response(sock)
    peer.send({"cmd": "drop"})
    sock.settimeout(3)
    try:
        assert sock.recv(1) == b""
    except ConnectionResetError:
        pass  # the expected outcome: drop resets the connection
    assert peer.send({"cmd": "connections"}) == ["0", "OK connections"]


def check_restart(peer, ctx):
    port = peer.port
    before = json.loads(peer.send({"cmd": "snapshot"})[0])
    assert before["seq"] == 18, before  # 18 events published so far
    sock = connect(port)
    subscribe(sock, "r", "feature.updated")
    read_response(sock)
    refused = []

    def probe():
        time.sleep(0.4)
        try:
            connect(port).close()
            refused.append(False)
        except ConnectionRefusedError:
            refused.append(True)

    prober = threading.Thread(target=probe)
    prober.start()
    peer.send({"cmd": "restart", "down_seconds": 1.0})
    prober.join()
    sock.settimeout(3)
    assert sock.recv(1) == b"", "stream survived a restart"
    assert refused == [True], "the port answered while down"
    check_health(peer, ctx)
    r = request(port, tool_call={"tool_name": "board_snapshot"})
    assert json_format.MessageToDict(r.tool_call.result) == before, "the truth did not survive the restart"


def check_bad_client_frames(peer, ctx):
    for junk in (struct.pack(">I", 2) + b"\x0f\x00", struct.pack(">I", 17 * 1024 * 1024), b"\x00\x00"):
        with connect(peer.port) as sock:
            sock.sendall(junk)
            if len(junk) == 2:
                sock.shutdown(socket.SHUT_WR)
            sock.settimeout(3)
            assert sock.recv(1) == b"", f"peer answered {junk!r}"
    check_health(peer, ctx)


def check_health_only(_, ctx):
    peer = Peer("--mode", "health-only")
    try:
        check_health(peer, ctx)
        r = request(peer.port, tool_call={"tool_name": "board_snapshot"})
        assert not r.tool_call.success and r.tool_call.error_code == "unknown_tool", r
        with connect(peer.port) as sock:
            subscribe(sock, "h", "feature.created")
            sock.settimeout(3)
            assert sock.recv(1) == b"", "health-only acknowledged a subscribe"
    finally:
        assert peer.stop() == 0


def check_silent(_, ctx):
    peer = Peer("--mode", "silent")
    try:
        with connect(peer.port) as sock:
            subscribe(sock, "q", "feature.created")
            assert read_response(sock).event_delivery.subscription_id == "q"
            peer.send(event("feature.created", {"id": "F9", "title": "x", "status": "todo"}))
            nothing_arrives(sock)
    finally:
        assert peer.stop() == 0


def check_codec(_, ctx):
    line = {"request_id": "c", "event_delivery": {"topic": "t", "payload": {"a": [1, None, {"é": True}], "seq": 3},
                                                    "timestamp": "2026-11-03T09:15:00Z"}}
    codec = [sys.executable, os.path.join(HERE, "codec.py")]
    frames = subprocess.run(codec + ["encode", "PluginResponse", "--unknown-fields"],
                            input=(json.dumps(line) + "\n").encode(), capture_output=True, check=True).stdout
    assert frames.count(pb.UNKNOWN_FIELDS) >= 5, "unknown fields missing from nested messages"
    decoded = subprocess.run(codec + ["decode", "PluginResponse"], input=frames * 2, capture_output=True,
                             check=True).stdout.decode().splitlines()
    line["event_delivery"]["payload"] = {"a": [1.0, None, {"é": True}], "seq": 3.0}
    assert [json.loads(d) for d in decoded] == [line, line], decoded


def check_quit(peer, ctx):
    assert peer.stop() == 0


CHECKS = [
    check_health, check_subscribe_two_topics_one_connection, check_deliveries, check_no_past_events,
    check_board_snapshot, check_unknown_tool, check_unsubscribe, check_inject_unknown_oneof, check_garbage,
    check_oversize, check_stall, check_die_mid_frame, check_drop, check_restart, check_bad_client_frames,
    check_health_only, check_silent, check_codec, check_quit,
]


def main():
    began = time.monotonic()
    peer = Peer()
    ctx = {}
    failed = []
    for check in CHECKS:
        name = check.__name__.removeprefix("check_")
        t = time.monotonic()
        try:
            check(peer, ctx)
            print(f"  ok    {name} ({time.monotonic() - t:.2f}s)")
        except Exception:
            failed.append(name)
            print(f"  FAIL  {name}\n" + "".join("        " + l for l in traceback.format_exc().splitlines(True)))
    peer.stop()
    total = time.monotonic() - began
    if failed:
        print(f"selfcheck: {len(failed)} of {len(CHECKS)} checks failed ({', '.join(failed)}) in {total:.1f}s")
        return 1
    print(f"selfcheck: all {len(CHECKS)} checks passed in {total:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
