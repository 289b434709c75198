#!/usr/bin/env python3
"""Self-check of the QUIC test peer: makes a certificate set with make-certs.sh, starts
quic_peer.py, talks to it with aioquic's client (mutual TLS, ALPN orchestra-plugin) and
exercises the scenarios and control commands, the TLS refusals included.

  PY="$(scripts/quic-venv.sh | tail -n1)"
  "$PY" -B Tests/OrchestraPeer/quic_selfcheck.py      exit 0 when every check passes, 1 otherwise
"""

import asyncio
import json
import logging
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

try:
    from aioquic.asyncio.protocol import QuicConnectionProtocol
    from aioquic.quic import events
    from aioquic.quic.configuration import QuicConfiguration
    from aioquic.quic.connection import QuicConnection
except ImportError as error:  # run with the system python instead of the venv's
    sys.exit(f"quic selfcheck: {error}; run it with the python that scripts/quic-venv.sh prints")
from google.protobuf import json_format  # noqa: E402

import pb  # noqa: E402

O = pb.orchestra
logging.getLogger("quic").addHandler(logging.NullHandler())  # our client's expected failures
logging.getLogger("quic").propagate = False
SHORT = 0.4  # how long "nothing arrives" is watched for
CRYPTO_ERROR = 0x100  # + TLS alert
BAD_CERTIFICATE = 42
CERTIFICATE_REQUIRED = 116
NO_APPLICATION_PROTOCOL = 120
CERTS = None  # the folder make-certs.sh fills


class Peer:
    def __init__(self, *args):
        self.proc = subprocess.Popen(
            [sys.executable, "-B", os.path.join(HERE, "quic_peer.py"), "--port", "0", "--certs", CERTS,
             "--quiet", *args],
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

    async def asend(self, command):
        """send() off the event loop, so our QUIC client keeps acknowledging meanwhile."""
        return await asyncio.to_thread(self.send, command)

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


# The client --------------------------------------------------------------------------------------

class Client(QuicConnectionProtocol):
    """aioquic's client protocol, recording what arrives on each stream."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.buffers = {}  # stream id → bytearray not consumed yet
        self.ended = set()  # streams the peer finished (FIN)
        self.resets = {}  # stream id → RESET_STREAM code
        self.terminated = None  # the ConnectionTerminated event
        self.refused = False  # an ICMP port unreachable came back
        self.alpn = None
        self.changed = asyncio.Event()

    def quic_event_received(self, event):
        if isinstance(event, events.StreamDataReceived):
            self.buffers.setdefault(event.stream_id, bytearray()).extend(event.data)
            if event.end_stream:
                self.ended.add(event.stream_id)
        elif isinstance(event, events.StreamReset):
            self.resets[event.stream_id] = event.error_code
        elif isinstance(event, events.ConnectionTerminated):
            self.terminated = event
        elif isinstance(event, events.HandshakeCompleted):
            self.alpn = event.alpn_protocol
        self.changed.set()

    def error_received(self, exc):
        self.refused = self.refused or isinstance(exc, ConnectionRefusedError)
        self.changed.set()

    async def until(self, predicate, timeout=3.0, what="condition"):
        deadline = time.monotonic() + timeout
        while not predicate():
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"timed out waiting for {what}"
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), remaining)
            except asyncio.TimeoutError:
                pass

    def open(self, *requests, fin=True):
        """A new stream carrying these requests (then FIN unless fin=False); returns its id."""
        sid = self._quic.get_next_available_stream_id()
        self.write(sid, *requests, fin=fin)
        return sid

    def write(self, sid, *requests, fin=False, raw=b""):
        data = b"".join(pb.frame(r) for r in requests) + raw
        self._quic.send_stream_data(sid, data, end_stream=fin)
        self.transmit()

    def _frame_ready(self, sid):
        buf = self.buffers.get(sid, b"")
        return len(buf) >= 4 and len(buf) >= 4 + struct.unpack_from(">I", buf)[0]

    def _stream_over(self, sid):
        return sid in self.ended or sid in self.resets or self.terminated is not None

    async def frame(self, sid, timeout=3.0):
        """The next frame's body on that stream."""
        await self.until(lambda: self._frame_ready(sid) or self._stream_over(sid), timeout, f"a frame on {sid}")
        assert self._frame_ready(sid), (f"stream {sid} over before a whole frame: {len(self.buffers.get(sid, b''))} "
                                        f"bytes, reset {self.resets.get(sid)}, terminated {self.terminated}")
        buf = self.buffers[sid]
        (length,) = struct.unpack_from(">I", buf)
        body = bytes(buf[4:4 + length])
        del buf[:4 + length]
        return body

    async def response(self, sid, timeout=3.0):
        response = O.PluginResponse()
        response.ParseFromString(await self.frame(sid, timeout))
        return response

    async def nothing_arrives(self, sid, seconds=SHORT):
        await asyncio.sleep(seconds)
        assert not self.buffers.get(sid) and not self._stream_over(sid), (
            f"stream {sid}: {bytes(self.buffers.get(sid, b''))!r}, ended {sid in self.ended}, "
            f"reset {self.resets.get(sid)}, terminated {self.terminated}")

    async def end_without_reply(self, sid):
        await self.until(lambda: self._stream_over(sid), what=f"the end of stream {sid}")
        assert sid in self.ended and not self.buffers.get(sid), (sid, self.buffers.get(sid), self.resets, self.terminated)

    async def closed_with(self, code, timeout=3.0):
        await self.until(lambda: self.terminated is not None, timeout, "the connection's close")
        assert self.terminated.error_code == code, (
            f"closed with {self.terminated.error_code:#x} ({self.terminated.reason_phrase!r}), expected {code:#x}")

    def shut(self):
        if self.terminated is None:
            self.close()
        self._transport.close()


def configuration(cert="wallboard-client", server_name="localhost", alpn="orchestra-plugin", ca="ca.crt"):
    config = QuicConfiguration(is_client=True, alpn_protocols=[alpn], server_name=server_name)
    config.load_verify_locations(os.path.join(CERTS, ca))
    if cert:
        config.load_cert_chain(os.path.join(CERTS, f"{cert}.crt"), os.path.join(CERTS, f"{cert}.key"))
    return config


async def connect(port, wait=True, **options):
    """A connected client (the handshake done on our side); wait=False returns it at once."""
    loop = asyncio.get_running_loop()
    quic = QuicConnection(configuration=configuration(**options))
    _, client = await loop.create_datagram_endpoint(lambda: Client(quic), remote_addr=("127.0.0.1", port))
    client.connect(("127.0.0.1", port))
    if wait:
        await client.until(lambda: client.alpn is not None or client.terminated is not None, what="the handshake")
        assert client.terminated is None, f"handshake failed: {client.terminated}"
    return client


def health():
    return O.PluginRequest(request_id="r-short", health={})


def request(**fields):
    req = O.PluginRequest(request_id="r-short")
    json_format.ParseDict(fields, req)
    return req


def subscribe(sid, topic):
    req = O.PluginRequest(request_id=f"r-{sid}")
    req.subscribe.subscription_id = sid
    req.subscribe.topic = topic
    return req


def event(topic, payload, **extra):
    return {"cmd": "publish", "event": dict(topic=topic, payload=payload, **extra)}


async def rpc(client, req):
    sid = client.open(req)
    response = await client.response(sid)
    await client.until(lambda: sid in client.ended, what="the FIN after the response")
    assert not client.buffers[sid], "bytes after the response"
    return response


async def check_health(client):
    r = await rpc(client, health())
    assert r.WhichOneof("response") == "health" and r.health.status == O.HealthResult.HEALTHY, r
    assert r.request_id == "r-short" and r.health.message == "ok", r


async def wait_for_connections(peer, count, timeout=3.0):
    deadline = time.monotonic() + timeout
    while (got := await peer.asend({"cmd": "connections"})) != [str(count), "OK connections"]:
        assert time.monotonic() < deadline, f"connections: {got}, expected {count}"
        await asyncio.sleep(0.02)


# The checks against the main peer (optional client certificates, full mode) -----------------

async def check_mtls_handshake(peer, ctx):
    client = await connect(peer.port)
    ctx["client"] = client
    assert client.alpn == "orchestra-plugin", client.alpn
    conns = json.loads((await peer.asend({"cmd": "quic_connections"}))[0])
    assert [(c["client_cert"], c["alpn"]) for c in conns] == [("wallboard-client", "orchestra-plugin")], conns


async def check_health_rpc(peer, ctx):
    await check_health(ctx["client"])


async def check_ip_literal_server_name(peer, ctx):
    client = await connect(peer.port, server_name="127.0.0.1")  # checks the iPAddress SAN
    await check_health(client)
    client.shut()


async def check_subscribe_then_fin(peer, ctx):
    client = ctx["client"]
    sid = client.open(subscribe("s1", "feature.created"), subscribe("s2", "sprint.created"))  # then FIN
    ctx["stream"] = sid
    for sub_id, topic in (("s1", "feature.created"), ("s2", "sprint.created")):
        ack = await client.response(sid)
        d = ack.event_delivery
        assert ack.WhichOneof("response") == "event_delivery", ack
        assert [f.name for f, _ in d.ListFields()] == ["subscription_id", "topic"], d
        assert (d.subscription_id, d.topic, ack.request_id) == (sub_id, topic, f"r-{sub_id}"), ack
    await client.nothing_arrives(sid)  # our FIN did not end the subscription
    assert await peer.asend({"cmd": "connections"}) == ["1", "OK connections"]


async def check_deliveries(peer, ctx):
    client, sid = ctx["client"], ctx["stream"]
    await peer.asend(event("feature.created", {"id": "F1", "title": "Login", "status": "todo", "labels": ["a", "ü"]},
                           time="2026-11-03T09:15:00Z", event_type="created", source="tools.features"))
    await peer.asend(event("feature.updated", {"id": "F1", "status": "in-progress"}))  # not subscribed
    await peer.asend(event("sprint.created", {"id": "S1", "name": "One", "feature_ids": ["F1"]}, seq=10))
    first = await client.response(sid)
    d = first.event_delivery
    assert (first.request_id, d.subscription_id, d.topic, d.event_type) == ("r-s1", "s1", "feature.created", "created")
    payload = json_format.MessageToDict(d.payload)
    assert payload == {"id": "F1", "title": "Login", "status": "todo", "labels": ["a", "ü"], "seq": 1}, payload
    assert d.source_plugin == "tools.features" and d.timestamp.ToJsonString() == "2026-11-03T09:15:00Z"
    second = (await client.response(sid)).event_delivery
    assert (second.subscription_id, second.payload.fields["seq"].number_value) == ("s2", 10), second
    await client.nothing_arrives(sid)


async def check_board_snapshot(peer, ctx):
    await peer.asend(event("workflow.transitioned", {"feature_id": "F1", "to": "in-review"}))
    r = await rpc(ctx["client"], request(tool_call={"tool_name": "board_snapshot", "arguments": {}}))
    assert r.WhichOneof("response") == "tool_call" and r.tool_call.success, r
    got = json_format.MessageToDict(r.tool_call.result)
    truth = json.loads((await peer.asend({"cmd": "snapshot"}))[0])
    assert got == truth and truth["seq"] == 11, (got, truth)
    assert truth["features"][0]["status"] == "in-review", truth
    r = await rpc(ctx["client"], request(tool_call={"tool_name": "nope"}))
    assert not r.tool_call.success and r.tool_call.error_code == "unknown_tool", r


async def check_unsubscribe_rpc(peer, ctx):
    r = await rpc(ctx["client"], request(unsubscribe={"subscription_id": "s2"}))
    assert r.request_id == "r-short" and r.WhichOneof("response") is None, r
    await peer.asend(event("sprint.created", {"id": "S2", "name": "Two"}))
    await peer.asend(event("feature.created", {"id": "F2", "title": "x", "status": "todo"}))
    d = (await ctx["client"].response(ctx["stream"])).event_delivery
    assert (d.subscription_id, d.payload.fields["id"].string_value) == ("s1", "F2"), d


async def check_inject_unknown_oneof(peer, ctx):
    await peer.asend({"cmd": "inject", "response": {"request_id": "x", "register": {}}, "unknown_fields": True})
    body = await ctx["client"].frame(ctx["stream"])
    r = O.PluginResponse()
    r.ParseFromString(body)
    assert r.WhichOneof("response") == "register" and pb.UNKNOWN_FIELDS in body, r


async def check_garbage(peer, ctx):
    await peer.asend({"cmd": "garbage"})
    body = await ctx["client"].frame(ctx["stream"])
    assert len(body) == 64 and body[0] == 0x0F, body
    try:
        O.PluginResponse().ParseFromString(body)
    except Exception:
        pass
    else:
        assert False, f"garbage parsed: {body!r}"


async def check_stall(peer, ctx):
    client, sid = ctx["client"], ctx["stream"]
    await peer.asend({"cmd": "stall", "seconds": 1.0})
    started = time.monotonic()
    await peer.asend(event("feature.created", {"id": "F3", "title": "y", "status": "todo"}))
    fresh = client.open(health())  # a new stream gets no answer while stalled
    await client.nothing_arrives(sid, 0.5)
    await client.nothing_arrives(fresh, 0.1)
    d = (await client.response(sid)).event_delivery
    assert d.payload.fields["id"].string_value == "F3" and time.monotonic() - started >= 0.9, d
    assert (await client.response(fresh)).health.status == O.HealthResult.HEALTHY


async def check_oversize(peer, ctx):
    client = ctx["client"]
    sid = client.open(subscribe("o", "nothing.here"))
    await client.response(sid)
    await wait_for_connections(peer, 2)
    await peer.asend({"cmd": "oversize"})
    for stream in (sid, ctx["stream"]):  # every subscription stream gets one
        await client.until(lambda: len(client.buffers[stream]) >= 4, what="the length prefix")
        assert bytes(client.buffers[stream]) == b"\x7f\xff\xff\xff", client.buffers[stream]
        client.buffers[stream].clear()
    await client.nothing_arrives(sid)
    client._quic.stop_stream(sid, 0x99)  # we give up on that stream: the peer forgets it
    client.transmit()
    await wait_for_connections(peer, 1)


async def check_bad_client_frames(peer, ctx):
    client = ctx["client"]
    for junk in (struct.pack(">I", 2) + b"\x0f\x00", struct.pack(">I", 17 * 1024 * 1024), b"\x00\x00"):
        sid = client._quic.get_next_available_stream_id()
        client.write(sid, raw=junk, fin=True)
        await client.end_without_reply(sid)
    await check_health(client)


async def check_die_mid_frame_reset(peer, ctx):
    client = ctx["client"]
    sid = client.open(subscribe("dr", "feature.updated"))
    await client.response(sid)
    await peer.asend({"cmd": "die_mid_frame", "how": "reset"})
    await peer.asend(event("feature.updated", {"id": "F3", "status": "doing"}))
    await client.until(lambda: sid in client.resets, what="the reset")
    assert client.resets[sid] == 0x2, client.resets
    got = len(client.buffers[sid])
    assert got >= 4 and got < 4 + struct.unpack_from(">I", client.buffers[sid])[0], got
    await check_health(client)  # the connection survives a stream reset
    # The main stream was armed too, but no feature.updated reached it: it is still there.
    assert await peer.asend({"cmd": "connections"}) == ["1", "OK connections"]


async def check_die_mid_frame_fin(peer, ctx):
    client = ctx["client"]
    sid = client.open(subscribe("df", "feature.updated"))
    await client.response(sid)
    await peer.asend({"cmd": "die_mid_frame", "how": "fin"})
    await peer.asend(event("feature.updated", {"id": "F3", "status": "doing"}))
    await client.until(lambda: sid in client.ended, what="the FIN")
    buf = client.buffers[sid]
    assert 4 <= len(buf) < 4 + struct.unpack_from(">I", buf)[0], len(buf)
    assert await peer.asend({"cmd": "connections"}) == ["1", "OK connections"]  # the main stream


async def check_die_mid_frame(peer, ctx):
    client = ctx["client"]
    sid = client.open(subscribe("d", "feature.updated"))
    await client.response(sid)
    await peer.asend({"cmd": "die_mid_frame"})
    await peer.asend(event("feature.updated", {"id": "F3", "status": "done"}))
    await client.closed_with(0x2)  # the main stream, armed as well, ends with its connection
    buf = client.buffers[sid]
    assert 4 <= len(buf) < 4 + struct.unpack_from(">I", buf)[0], f"{len(buf)} bytes"
    assert await peer.asend({"cmd": "connections"}) == ["0", "OK connections"]
    client.shut()


async def check_client_close(peer, ctx):
    client = await connect(peer.port)
    sid = client.open(subscribe("c", "feature.updated"))
    await client.response(sid)
    await wait_for_connections(peer, 1)
    started = time.monotonic()
    client.close()  # CONNECTION_CLOSE from our side: the peer forgets the stream at once
    await wait_for_connections(peer, 0, timeout=1.0)
    assert time.monotonic() - started < 0.5, "the peer was slow to notice the close"
    client.shut()


async def check_drop(peer, ctx):
    client = await connect(peer.port)
    sid = client.open(subscribe("x", "feature.updated"))
    await client.response(sid)
    await peer.asend({"cmd": "drop"})
    await client.closed_with(0x1)
    assert await peer.asend({"cmd": "connections"}) == ["0", "OK connections"]
    client.shut()


async def check_restart(peer, ctx):
    before = json.loads((await peer.asend({"cmd": "snapshot"}))[0])
    client = await connect(peer.port)
    sid = client.open(subscribe("r", "feature.updated"))
    await client.response(sid)
    restarting = asyncio.ensure_future(peer.asend({"cmd": "restart", "down_seconds": 1.0}))
    await client.closed_with(0x0)
    client.shut()
    await asyncio.sleep(0.3)
    probe = await connect(peer.port, wait=False)  # while down: refused, no handshake
    await probe.until(lambda: probe.refused or probe.alpn is not None, what="the probe's fate")
    assert probe.refused and probe.alpn is None, "the port answered while down"
    probe._transport.close()
    await restarting
    client = await connect(peer.port)
    await check_health(client)
    r = await rpc(client, request(tool_call={"tool_name": "board_snapshot"}))
    assert json_format.MessageToDict(r.tool_call.result) == before, "the truth did not survive the restart"
    client.shut()


async def check_other_ca_client_refused(peer, ctx):
    client = await connect(peer.port, wait=False, cert="other-client")
    client.open(health())
    await client.closed_with(CRYPTO_ERROR + BAD_CERTIFICATE)
    assert not client.buffers, client.buffers
    client.shut()


async def check_no_client_cert_accepted(peer, ctx):
    client = await connect(peer.port, cert=None)
    await check_health(client)
    conns = json.loads((await peer.asend({"cmd": "quic_connections"}))[0])
    assert [c["client_cert"] for c in conns] == [None], conns
    client.shut()


# Checks that need a peer of their own --------------------------------------------------------

async def check_required_mode(_, ctx):
    peer = Peer("--client-cert", "required")
    try:
        client = await connect(peer.port, wait=False, cert=None)
        client.open(health())
        await client.closed_with(CRYPTO_ERROR + CERTIFICATE_REQUIRED)
        client.shut()
        client = await connect(peer.port)
        await check_health(client)
        client.shut()
    finally:
        assert peer.stop() == 0


async def check_wrong_alpn_refused_by_client(_, ctx):
    for alpn in ("h3", "none"):
        peer = Peer("--alpn", alpn)
        try:
            client = await connect(peer.port, wait=False)
            await client.closed_with(CRYPTO_ERROR + NO_APPLICATION_PROTOCOL)  # our client's own alert
            assert client.alpn is None
            client.shut()
        finally:
            assert peer.stop() == 0


async def check_server_certificates_refused_by_client(_, ctx):
    for cert in ("wrongname-server", "other-server"):
        peer = Peer("--cert", f"{cert}.crt", "--key", f"{cert}.key")
        try:
            client = await connect(peer.port, wait=False)
            await client.closed_with(CRYPTO_ERROR + BAD_CERTIFICATE)  # our client's own check
            client.shut()
        finally:
            assert peer.stop() == 0


async def check_modes(_, ctx):
    peer = Peer("--mode", "health-only", "--client-cert", "none")
    try:
        client = await connect(peer.port)
        r = await rpc(client, request(tool_call={"tool_name": "board_snapshot"}))
        assert not r.tool_call.success and r.tool_call.error_code == "unknown_tool", r
        sid = client.open(subscribe("h", "feature.created"))
        await client.end_without_reply(sid)
        conns = json.loads((await peer.asend({"cmd": "quic_connections"}))[0])
        assert [c["client_cert"] for c in conns] == [None], conns  # none: no certificate asked for
        client.shut()
    finally:
        assert peer.stop() == 0
    peer = Peer("--mode", "health-only-reset")
    try:
        client = await connect(peer.port)
        sid = client.open(subscribe("h", "feature.created"))
        await client.until(lambda: sid in client.resets, what="the reset")
        assert client.resets[sid] == 0x10 and not client.buffers.get(sid), client.resets
        client.shut()
    finally:
        assert peer.stop() == 0
    peer = Peer("--mode", "silent")
    try:
        client = await connect(peer.port)
        sid = client.open(subscribe("q", "feature.created"))
        assert (await client.response(sid)).event_delivery.subscription_id == "q"
        await peer.asend(event("feature.created", {"id": "F9", "title": "x", "status": "todo"}))
        await client.nothing_arrives(sid)
        client.shut()
    finally:
        assert peer.stop() == 0


async def check_quit(peer, ctx):
    client = await connect(peer.port)
    stopping = asyncio.ensure_future(asyncio.to_thread(peer.stop))
    await client.closed_with(0x0)
    assert await stopping == 0
    client.shut()


CHECKS = [
    check_mtls_handshake, check_health_rpc, check_ip_literal_server_name, check_subscribe_then_fin,
    check_deliveries, check_board_snapshot, check_unsubscribe_rpc, check_inject_unknown_oneof, check_garbage,
    check_stall, check_oversize, check_bad_client_frames, check_die_mid_frame_reset, check_die_mid_frame_fin,
    check_die_mid_frame, check_client_close, check_drop, check_restart, check_other_ca_client_refused, check_no_client_cert_accepted,
    check_required_mode, check_wrong_alpn_refused_by_client, check_server_certificates_refused_by_client,
    check_modes, check_quit,
]


async def run_checks():
    peer = Peer()
    ctx = {}
    failed = []
    for check in CHECKS:
        name = check.__name__.removeprefix("check_")
        t = time.monotonic()
        try:
            await asyncio.wait_for(check(peer, ctx), 20)
            print(f"  ok    {name} ({time.monotonic() - t:.2f}s)", flush=True)
        except Exception:
            failed.append(name)
            print(f"  FAIL  {name}\n" + "".join("        " + l for l in traceback.format_exc().splitlines(True)),
                  flush=True)
    peer.stop()
    return failed


def main():
    global CERTS
    began = time.monotonic()
    scratch = tempfile.mkdtemp(prefix="wallboard-quic-selfcheck-")
    try:
        CERTS = os.path.join(scratch, "certs")
        subprocess.run(["bash", os.path.join(HERE, "make-certs.sh"), CERTS], check=True)
        failed = asyncio.run(run_checks())
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    total = time.monotonic() - began
    if failed:
        print(f"quic selfcheck: {len(failed)} of {len(CHECKS)} checks failed ({', '.join(failed)}) in {total:.1f}s")
        return 1
    print(f"quic selfcheck: all {len(CHECKS)} checks passed in {total:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
