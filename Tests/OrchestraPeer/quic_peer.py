#!/usr/bin/env python3
"""The Orchestra test peer over QUIC with mutual TLS (aioquic). See README.md, "QUIC peer".

  PY="$(scripts/quic-venv.sh | tail -n1)"
  "$PY" -B Tests/OrchestraPeer/quic_peer.py --port 0 --certs DIR
        [--cert server.crt] [--key server.key] [--ca ca.crt] [--alpn orchestra-plugin|none|OTHER]
        [--client-cert optional|required|none] [--mode full|health-only|health-only-reset|silent]
        [--snapshot FILE.json] [--events FILE.jsonl] [--idle-timeout 300] [--keepalive 15] [--quiet]

Serves what peer.py serves, with the same stdin control channel, but every QUIC bidirectional
stream plays the part a TCP connection plays in peer.py: one request per stream, and a
subscription keeps its stream open while the peer writes deliveries on it. The client's FIN
(the end of its requests) does not end a subscription.

It reuses peer.py: `Server.answer` (one-shot requests), `Server._stream_request` (requests on a
subscription stream), `Server.publish`, `Server.to_streams`, `Server.stall`, the truth and the
control command parser all come from there unchanged. What is QUIC is here: the endpoint, the
connections, the streams (`Stream` offers what peer.py's code expects of a connection: `subs`,
`enqueue`, `flush`, `wake`, `die_armed`, `name`), client-certificate checking and ALPN.

Threads: aioquic runs on one asyncio loop in its own thread; the main thread reads stdin and
runs control commands, which reach the loop through call_soon_threadsafe / run_coroutine_threadsafe.
Each stream's queue is drained on the loop in the order it was filled.
"""

import argparse
import asyncio
import collections
import functools
import json
import logging
import os
import socket
import struct
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

try:
    from aioquic import tls
    from aioquic.asyncio.protocol import QuicConnectionProtocol
    from aioquic.asyncio.server import QuicServer
    from aioquic.quic import events
    from aioquic.quic.configuration import QuicConfiguration
    from cryptography import x509
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
except ImportError as error:  # run with the system python instead of the venv's
    sys.exit(f"quic peer: {error}; run it with the python that scripts/quic-venv.sh prints")

import pb  # noqa: E402
import peer as tcp  # noqa: E402
from truth import Truth  # noqa: E402

O = pb.orchestra
QUIET = False
ALPN = "orchestra-plugin"
DIE_ACK_TIMEOUT = 1.0  # die_mid_frame waits this long at most for the half frame to be acknowledged

# Application error codes (CONNECTION_CLOSE of type 0x1d, RESET_STREAM, STOP_SENDING). Orchestra
# defines none; these are the peer's own. TLS alerts close with CRYPTO_ERROR 0x100 + alert.
NO_ERROR = 0x0  # orderly: quit, restart
DROPPED = 0x1  # {"cmd":"drop"}
DIED = 0x2  # {"cmd":"die_mid_frame"} after the half frame
REFUSED = 0x10  # --mode health-only-reset refusing a subscribe (RESET_STREAM + STOP_SENDING)
BAD_REQUEST = 0x11  # STOP_SENDING after a frame that breaks the rules (too long, truncated, junk)
TIMED_OUT = 0x12  # STOP_SENDING after no request within FIRST_REQUEST_TIMEOUT
DIE_HOWS = ("connection", "reset", "fin")


def log(message):
    if not QUIET:
        print(f"quic-peer: {message}", file=sys.stderr, flush=True)


tcp.log = log  # peer.Server's own messages (subscribed, unsubscribed, duplicates) go through ours


class _ToLog(logging.Handler):
    def emit(self, record):
        log(f"aioquic: {record.getMessage()}")


# aioquic's warnings (a connection's error, e.g. the alert it sent) join our log, so --quiet
# silences them too instead of Python's last-resort handler printing them.
_quic_logger = logging.getLogger("quic")
_quic_logger.addHandler(_ToLog())
_quic_logger.setLevel(logging.WARNING)
_quic_logger.propagate = False


def common_name(certificate):
    names = certificate.subject.get_attributes_for_oid(NameOID.COMMON_NAME)
    return names[0].value if names else certificate.subject.rfc4514_string()


# TLS -----------------------------------------------------------------------------------------------

class AlertCertificateRequired(tls.Alert):
    description = tls.AlertDescription.certificate_required


class TLSSettings:
    def __init__(self, alpn, client_cert, ca):
        self.alpn = alpn  # the protocol the peer selects, None for no ALPN extension at all
        self.client_cert = client_cert  # "optional" | "required" | "none"
        self.ca = ca  # the CA file client certificates must chain to


def check_client_certificate(context, settings):
    """What upstream's VerifyClientCertIfGiven does (Go crypto/tls), which aioquic does not: a
    client certificate, when given, must chain to the CA, be valid now and allow client
    authentication. Raises a TLS alert (the handshake then fails with CRYPTO_ERROR + alert)."""
    certificate = context._peer_certificate
    if certificate is None:
        if settings.client_cert == "required":
            raise AlertCertificateRequired("a client certificate is required")
        return
    # Dates and chain (aioquic's own helper: OpenSSL's verifier over the CA file).
    tls.verify_certificate(certificate=certificate, chain=context._peer_certificate_chain, cafile=settings.ca)
    try:
        usage = certificate.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    except x509.ExtensionNotFound:
        usage = None
    if usage is not None and ExtendedKeyUsageOID.CLIENT_AUTH not in usage:
        raise tls.AlertBadCertificate("the certificate does not allow client authentication")


def hook_tls(quic, settings, name):
    """Adjusts the server's tls.Context once aioquic has made it (on the first datagram):

    - ALPN: the peer selects settings.alpn whatever the client offered (none: no ALPN at all),
      so that a client has to check the selected protocol itself; it never sends
      no_application_protocol.
    - Client certificates: unless "none", a CertificateRequest is sent (aioquic's private
      `_request_client_certificate`), and the certificate the client returns is checked by
      check_client_certificate right after aioquic parses it — aioquic itself checks only the
      CertificateVerify signature, never the chain.
    """
    initialize = quic._initialize

    def initialize_with_hooks(peer_cid):
        initialize(peer_cid)
        context = quic.tls
        context._alpn_protocols = None  # no negotiation: we select below
        alpn_cb = context.alpn_cb  # aioquic's own handler (it also parses transport parameters)

        def select(_negotiated):
            context.alpn_negotiated = settings.alpn  # what EncryptedExtensions then carries
            alpn_cb(settings.alpn)

        context.alpn_cb = select
        if settings.client_cert == "none":
            return
        context._request_client_certificate = True
        handle_certificate = context._server_handle_certificate

        def handle_certificate_and_check(input_buf):
            handle_certificate(input_buf)
            try:
                check_client_certificate(context, settings)
            except tls.Alert as alert:
                log(f"{name()}: refused the client certificate ({alert.description.name}: {alert})")
                raise
            if context._peer_certificate is None:
                log(f"{name()}: client sent no certificate ({settings.client_cert}: accepted)")

        context._server_handle_certificate = handle_certificate_and_check

    quic._initialize = initialize_with_hooks


# Streams ---------------------------------------------------------------------------------------

class Stream:
    """One client-initiated bidirectional stream: what a TCP connection is to peer.py.

    Reading, writing and closing happen on the loop thread; enqueue, flush and wake may be
    called from any thread (peer.py's Server calls them from the control thread).
    """

    def __init__(self, connection, stream_id):
        self.connection = connection
        self.server = connection.server
        self.loop = self.server.loop
        self.stream_id = stream_id
        self.name = f"{connection.name}#{stream_id}"
        self.cond = threading.Condition()
        self.queue = collections.deque()  # ("frame" | "raw", bytes)
        self.busy = False  # the loop is writing (or dying on) items it took from the queue
        self.closed = False
        self.die_armed = False  # False or one of DIE_HOWS
        self.subs = {}  # subscription_id → (topic, request_id), guarded by server.lock
        self.inbox = bytearray()
        self.read_done = False  # the client sent FIN
        self.subscribed = False
        self.fin_logged = False
        self.pump_timer = None
        self.first_timer = self.loop.call_later(tcp.FIRST_REQUEST_TIMEOUT, self._first_request_timeout)

    @property
    def quic(self):
        return self.connection._quic

    # Reading (loop thread) --------------------------------------------------------------------

    def received(self, data, end):
        if self.closed:
            return
        self.inbox += data
        if end:
            self.read_done = True
        self.process()

    def process(self):
        try:
            self._process()
        except Exception as error:  # a bug in the peer must not take the process down
            log(f"{self.name}: internal error: {error!r}")
            self.close("internal error", fin=True)

    def _process(self):
        if self.closed:
            return
        if not self.subscribed and self.server.stall_remaining() > 0:
            self.server.defer(self)  # a stalled peer reads no new requests (peer.py: no accept)
            return
        while not self.closed and len(self.inbox) >= 4:
            (length,) = struct.unpack_from(">I", self.inbox)
            if length > pb.MAX_FRAME:
                self.close(f"bad frame: frame of {length} bytes exceeds the {pb.MAX_FRAME}-byte limit",
                           fin=True, stop=BAD_REQUEST)
                return
            if len(self.inbox) < 4 + length:
                break
            body = bytes(self.inbox[4:4 + length])
            del self.inbox[:4 + length]
            request = O.PluginRequest()
            try:
                request.ParseFromString(body)
            except Exception as error:  # DecodeError; never let a client's bytes crash the peer
                self.close(f"not a PluginRequest ({len(body)} bytes): {error}", fin=True, stop=BAD_REQUEST)
                return
            if self.subscribed:
                self.server._stream_request(self, request)
            else:
                self._first_request(request)
        if self.closed or not self.read_done:
            return
        if self.inbox:
            self.close(f"bad frame: stream ended after {len(self.inbox)} bytes of a frame", fin=True)
        elif not self.subscribed:
            self.close("end of stream before a request", fin=True)
        elif not self.fin_logged:
            self.fin_logged = True
            log(f"{self.name}: client finished sending; the subscription stays open")

    def _first_request(self, request):
        self.first_timer.cancel()
        kind = request.WhichOneof("request")
        if kind != "subscribe":
            # A one-shot stream: one request, one response, FIN.
            response = self.server.answer(request)
            if response is None:
                self.close(f"unsupported request {kind!r}", fin=True)
                return
            try:
                self.quic.send_stream_data(self.stream_id, pb.frame(response), end_stream=True)
            except (ValueError, RuntimeError, AssertionError) as error:
                self.close(f"write failed: {error}")
                return
            self.close(f"answered {kind}")
            return
        if self.server.mode in ("health-only", "health-only-reset"):
            topic = request.subscribe.topic
            if self.server.mode == "health-only":
                self.close(f"health-only: refused subscribe to {topic!r}", fin=True)
            else:
                self.close(f"health-only-reset: refused subscribe to {topic!r}", reset=REFUSED, stop=REFUSED)
            return
        self.subscribed = True
        self.server._stream_request(self, request)

    def _first_request_timeout(self):
        remaining = self.server.stall_remaining()
        if remaining > 0:  # peer.py starts its 30 s only once a stall is over
            self.first_timer = self.loop.call_later(remaining + tcp.FIRST_REQUEST_TIMEOUT, self._first_request_timeout)
            return
        self.close(f"no request within {tcp.FIRST_REQUEST_TIMEOUT:.0f} s", fin=True, stop=TIMED_OUT)

    # Writing ----------------------------------------------------------------------------------

    def enqueue(self, kind, data):
        with self.cond:
            if self.closed:
                return
            self.queue.append((kind, data))
            self.cond.notify_all()
        self.server.soon(self.pump)

    def wake(self):
        self.server.soon(self.pump)

    def flush(self, timeout=tcp.FLUSH_TIMEOUT):
        """Waits until everything queued is handed to QUIC and sent, the stream closed, or a
        stall began (peer.py's meaning of "written")."""
        with self.cond:
            self.cond.wait_for(
                lambda: self.closed or (not self.queue and not self.busy) or self.server.stall_remaining() > 0,
                timeout=timeout,
            )

    def pump(self):
        """Loop thread: hands the queue to QUIC, in order, unless stalled."""
        if self.closed or self.busy:
            return
        remaining = self.server.stall_remaining()
        if remaining > 0:
            if self.pump_timer is not None:
                self.pump_timer.cancel()
            self.pump_timer = self.loop.call_later(remaining, self.pump)
            return
        with self.cond:
            if not self.queue:
                return
            items = list(self.queue)
            self.queue.clear()
            self.busy = True
        dying = False
        try:
            for kind, data in items:
                if kind == "frame" and self.die_armed:
                    dying = True
                    self._die(data)
                    return  # what was queued after it is lost with the stream
                self.quic.send_stream_data(self.stream_id, data)
        except (ValueError, RuntimeError, AssertionError) as error:
            self.close(f"write failed: {error}")
        finally:
            if not dying:
                self.connection.transmit()
                self._done_writing()

    def _done_writing(self):
        with self.cond:
            self.busy = False
            self.cond.notify_all()

    def _die(self, data):
        """Writes half the frame, then (once the half is acknowledged, so the client has it):
        connection → CONNECTION_CLOSE (application error DIED) for the whole QUIC connection;
        reset → RESET_STREAM(DIED) on this stream only; fin → FIN right after the half (no wait)."""
        how = self.die_armed
        half = data[: len(data) // 2]
        reason = f"died mid-frame after {len(half)} of {len(data)} bytes"
        try:
            self.quic.send_stream_data(self.stream_id, half, end_stream=how == "fin")
        except (ValueError, RuntimeError, AssertionError) as error:
            self.close(f"write failed: {error}")
            self._done_writing()
            return
        self.connection.transmit()
        if how == "fin":
            self.close(f"{reason} (FIN)")
            self._done_writing()
            return
        stream = self.quic._streams.get(self.stream_id)
        target = stream.sender._buffer_stop if stream is not None else 0
        deadline = self.loop.time() + DIE_ACK_TIMEOUT

        def finish():
            stream = self.quic._streams.get(self.stream_id)
            acked = stream is None or stream.sender._buffer_start >= target
            if not acked and not self.closed and self.loop.time() < deadline:
                self.loop.call_later(0.002, finish)
                return
            if how == "reset":
                try:
                    self.quic.reset_stream(self.stream_id, DIED)
                except (ValueError, RuntimeError, AssertionError):
                    pass
                self.close(f"{reason} (RESET_STREAM {DIED:#x})")
                self.connection.transmit()
            else:
                self.connection.close_connection(DIED, "died mid-frame", f"{reason} (CONNECTION_CLOSE {DIED:#x})")
            self._done_writing()

        finish()

    # Closing (loop thread) --------------------------------------------------------------------

    def close(self, reason, fin=False, reset=None, stop=None):
        """Closes once: fin sends our FIN, reset a RESET_STREAM with that code, stop a
        STOP_SENDING with that code (only if the client has not finished sending)."""
        with self.cond:
            if self.closed:
                return
            self.closed = True
            self.cond.notify_all()
        self.first_timer.cancel()
        if self.pump_timer is not None:
            self.pump_timer.cancel()
        log(f"{self.name}: closed ({reason})")
        self.server.forget(self)
        self.connection.stream_closed(self)
        if self.connection.closed:
            return
        stream = self.quic._streams.get(self.stream_id)
        try:
            if reset is not None:
                self.quic.reset_stream(self.stream_id, reset)
            elif fin and stream is not None and stream.sender._buffer_fin is None:
                self.quic.send_stream_data(self.stream_id, b"", end_stream=True)
            if stop is not None and stream is not None and not stream.receiver.is_finished:
                self.quic.stop_stream(self.stream_id, stop)
        except (ValueError, RuntimeError, AssertionError) as error:
            log(f"{self.name}: {error}")
        self.connection.transmit()


# Connections -----------------------------------------------------------------------------------

class Connection(QuicConnectionProtocol):
    def __init__(self, quic, stream_handler=None, *, server):
        super().__init__(quic, stream_handler)
        self.server = server
        self.name = "?"
        self.streams = {}  # stream id → Stream, open ones
        self.finished = set()  # ids of streams we closed: later bytes on them are ignored
        self.established = False
        self.closed = False
        self.retired = False  # its endpoint is closed: send nothing more
        self.client_cn = None
        self.alpn = None
        self.keepalive_timer = None
        server.live.add(self)
        hook_tls(quic, server.settings, lambda: self.name)

    def datagram_received(self, data, addr):
        if self.name == "?":
            self.name = f"{addr[0]}:{addr[1]}"
        super().datagram_received(data, addr)
        closing = self._quic._close_event  # set at once by a CONNECTION_CLOSE or a TLS failure;
        if closing is not None and not self.closed:  # the event itself comes 3 PTO later
            self._ended(closing)

    def _ended(self, event):
        log(f"{self.name}: connection ended (error {event.error_code:#x}, {event.reason_phrase!r})")
        self._gone(f"connection ended ({event.error_code:#x})")

    def transmit(self):
        if not self.retired:
            super().transmit()

    def quic_event_received(self, event):
        # Not calling the base class: it would make asyncio stream readers we do not use.
        if isinstance(event, events.HandshakeCompleted):
            self.established = True
            self.alpn = event.alpn_protocol
            certificate = self._quic.tls._peer_certificate
            self.client_cn = common_name(certificate) if certificate is not None else None
            log(f"{self.name}: connected (ALPN {self.alpn!r}, client certificate "
                f"{self.client_cn!r})")
            self._schedule_keepalive()
        elif isinstance(event, events.StreamDataReceived):
            sid = event.stream_id
            if self.closed or sid in self.finished:
                return
            if sid % 4 != 0:  # only client-initiated bidirectional streams carry requests
                log(f"{self.name}: ignored {len(event.data)} bytes on stream {sid} (not client bidi)")
                return
            stream = self.streams.get(sid)
            if stream is None:
                stream = self.streams[sid] = Stream(self, sid)
            stream.received(event.data, event.end_stream)
        elif isinstance(event, events.StreamReset):
            stream = self.streams.get(event.stream_id)
            if stream is not None:
                stream.close(f"client reset its side ({event.error_code:#x})", reset=event.error_code)
        elif isinstance(event, events.StopSendingReceived):
            stream = self.streams.get(event.stream_id)
            if stream is not None:  # aioquic has already reset our side with the client's code
                stream.close(f"client stopped reading ({event.error_code:#x})")
        elif isinstance(event, events.ConnectionTerminated):
            if not self.closed:  # an idle timeout, or a close not seen in datagram_received
                self._ended(event)

    def stream_closed(self, stream):
        self.streams.pop(stream.stream_id, None)
        self.finished.add(stream.stream_id)

    def close_connection(self, error_code, phrase, reason):
        """CONNECTION_CLOSE (application) with that code; every stream of it ends."""
        if self.closed:
            return
        log(f"{self.name}: closing the connection ({reason})")
        self._gone(reason)
        self.close(error_code=error_code, reason_phrase=phrase)  # aioquic: queue the close, transmit

    def _gone(self, reason):
        self.closed = True
        for stream in list(self.streams.values()):
            stream.close(reason)
        if self.keepalive_timer is not None:
            self.keepalive_timer.cancel()
            self.keepalive_timer = None
        self.server.live.discard(self)

    def _schedule_keepalive(self):
        if self.server.keepalive > 0 and not self.closed:
            self.keepalive_timer = self._loop.call_later(self.server.keepalive, self._keepalive)

    def _keepalive(self):
        if self.closed:
            return
        self._quic.send_ping(0)  # an ack-eliciting PING, as quic-go's keep-alive
        self.transmit()
        self._schedule_keepalive()

    def describe(self):
        return {"address": self.name, "alpn": self.alpn, "client_cert": self.client_cn,
                "streams": len(self.streams), "subscription_streams": sum(s.subscribed for s in self.streams.values())}


class Endpoint(QuicServer):
    """aioquic's server with a way to know its UDP socket is really closed (for restart)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.lost = asyncio.get_running_loop().create_future()

    def connection_lost(self, exc):
        if not self.lost.done():
            self.lost.set_result(None)


# The server --------------------------------------------------------------------------------------

class QuicPeer(tcp.Server):
    """peer.py's Server over QUIC: `streams` holds subscription Streams instead of sockets."""

    def __init__(self, mode, truth, configuration, settings, keepalive):
        super().__init__(mode, truth)
        self.configuration = configuration
        self.settings = settings
        self.keepalive = keepalive
        self.endpoint = None
        self.live = set()  # Connections not closed yet (loop thread)
        self.deferred = set()  # Streams whose first request waits for a stall to end
        self.deferred_timer = None
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, name="quic", daemon=True).start()

    # The loop -----------------------------------------------------------------------------------

    def soon(self, fn, *args):
        try:
            self.loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:
            pass  # the loop is closed: we are quitting

    def call(self, fn, *args, timeout=10.0):
        """Runs fn(*args) on the loop (awaiting it if it is a coroutine); returns its result."""

        async def run():
            result = fn(*args)
            if asyncio.iscoroutine(result):
                result = await result
            return result

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout)

    # Listening --------------------------------------------------------------------------------

    def listen(self, port):
        self.call(self._listen, port)

    async def _listen(self, port):
        transport, endpoint = await self.loop.create_datagram_endpoint(
            lambda: Endpoint(configuration=self.configuration,
                             create_protocol=functools.partial(Connection, server=self)),
            local_addr=("127.0.0.1", port))
        sock = transport.get_extra_info("socket")
        for option in (socket.SO_RCVBUF, socket.SO_SNDBUF):  # a long burst must not overrun them
            try:
                sock.setsockopt(socket.SOL_SOCKET, option, 4 << 20)
            except OSError:
                pass
        self.endpoint = endpoint
        self.port = sock.getsockname()[1]

    def stop_listening(self):
        """Closes the UDP socket; when it returns the port is free to bind again."""
        self.call(self._stop_listening)

    async def _stop_listening(self):
        endpoint, self.endpoint = self.endpoint, None
        if endpoint is None:
            return
        for connection in list(endpoint._protocols.values()):
            connection.retired = True  # no more datagrams (and no timers re-armed) on a closed socket
        endpoint._transport.close()
        await endpoint.lost

    # Connections ------------------------------------------------------------------------------

    def close_all(self, reason, abrupt):
        """Closes every QUIC connection: DROPPED for drop (abrupt), NO_ERROR otherwise."""
        self.call(self._close_all, reason, DROPPED if abrupt else NO_ERROR)

    def _close_all(self, reason, code):
        for connection in list(self.live):
            connection.close_connection(code, reason, f"{reason}, error {code:#x}")

    def restart(self, down_seconds):
        port = self.port
        self.call(self._close_all, "restart", NO_ERROR)
        self.stop_listening()
        time.sleep(down_seconds)
        self.listen(port)

    def describe(self):
        return self.call(lambda: [c.describe() for c in self.live if c.established and not c.closed])

    # Stalls -----------------------------------------------------------------------------------

    def stall(self, seconds):
        super().stall(seconds)  # sets the deadline and wakes every subscription stream
        self.soon(self._resume_deferred)

    def defer(self, stream):
        self.deferred.add(stream)
        self._resume_deferred()

    def _resume_deferred(self):
        if self.deferred_timer is not None:
            self.deferred_timer.cancel()
            self.deferred_timer = None
        remaining = self.stall_remaining()
        if remaining > 0:
            if self.deferred:
                self.deferred_timer = self.loop.call_later(remaining, self._resume_deferred)
            return
        streams, self.deferred = self.deferred, set()
        for stream in streams:
            stream.process()


def control(server, line, out):
    """The QUIC peer's commands: die_mid_frame takes a "how", quic_connections is new; every
    other command is peer.py's own control()."""
    try:
        command = json.loads(line)
        name = command["cmd"]
    except (ValueError, KeyError, TypeError):
        return tcp.control(server, line, out)  # it reports the bad line
    if name == "die_mid_frame":
        how = command.get("how", "connection")
        if how not in DIE_HOWS:
            out(f"ERR die_mid_frame how must be one of {', '.join(DIE_HOWS)}")
            return True
        with server.lock:
            for stream in server.streams:
                stream.die_armed = how
    elif name == "quic_connections":
        try:
            out(json.dumps(server.describe(), sort_keys=True))
        except Exception as error:
            out(f"ERR {name} {type(error).__name__}: {error}")
            return True
    else:
        return tcp.control(server, line, out)
    out(f"OK {name}")
    return True


def main():
    global QUIET
    parser = argparse.ArgumentParser(description="An Orchestra server over QUIC for Wallboard's tests.")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--certs", default="", help="folder of the certificate files (default: none, paths as given)")
    parser.add_argument("--cert", default="server.crt", help="server certificate, in --certs (default server.crt)")
    parser.add_argument("--key", default="server.key", help="its key, in --certs (default server.key)")
    parser.add_argument("--ca", default="ca.crt", help="the CA client certificates must chain to (default ca.crt)")
    parser.add_argument("--alpn", default=ALPN, help=f"the protocol the peer selects (default {ALPN}; none: no ALPN)")
    parser.add_argument("--client-cert", choices=["optional", "required", "none"], default="optional")
    parser.add_argument("--mode", choices=["full", "health-only", "health-only-reset", "silent"], default="full")
    parser.add_argument("--snapshot", help="initial truth, a board.snapshot payload (JSON)")
    parser.add_argument("--events", help="events.md JSON Lines applied to the truth at start")
    parser.add_argument("--idle-timeout", type=float, default=300.0, help="QUIC max idle timeout, s (default 300)")
    parser.add_argument("--keepalive", type=float, default=15.0, help="PING every S s per connection; 0: never")
    parser.add_argument("--quiet", action="store_true", help="no log lines on stderr")
    args = parser.parse_args()
    QUIET = tcp.QUIET = args.quiet

    def path(name):
        return os.path.join(args.certs, name)

    configuration = QuicConfiguration(is_client=False, idle_timeout=args.idle_timeout)
    try:
        configuration.load_cert_chain(path(args.cert), path(args.key))
        if args.client_cert != "none":
            with open(path(args.ca), "rb") as f:
                x509.load_pem_x509_certificate(f.read())
    except (OSError, ValueError) as error:
        sys.exit(f"quic peer: cannot load certificates: {error}")
    alpn = None if args.alpn in ("", "none") else args.alpn
    settings = TLSSettings(alpn, args.client_cert, path(args.ca))

    truth = Truth()
    if args.snapshot:
        with open(args.snapshot, encoding="utf-8") as f:
            truth = Truth(json.load(f))
    server = QuicPeer(args.mode, truth, configuration, settings, args.keepalive)
    if args.events:
        with open(args.events, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    server.publish(json.loads(line))

    def out(text):
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    server.listen(args.port)
    out(f"PORT {server.port}")
    log(f"listening on 127.0.0.1:{server.port} (UDP, {args.mode}, ALPN {alpn!r}, client cert {args.client_cert})")
    for line in sys.stdin:
        if line.strip() and not control(server, line, out):
            break
    # quit or end of stdin (the test that started us is gone): close every connection, stop.
    try:
        server.call(server._close_all, "quit", NO_ERROR, timeout=2.0)
    except Exception:
        pass
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
