#!/usr/bin/env python3
"""A test peer that plays an Orchestra server for Wallboard's tests. See README.md.

  python3 Tests/OrchestraPeer/peer.py --port 0 [--mode full|health-only|health-only-reset|silent]
          [--snapshot FILE.json] [--events FILE.jsonl] [--quiet]

Prints `PORT <n>` once listening on 127.0.0.1, then serves until `{"cmd":"quit"}` or the end of
stdin. Control commands arrive as JSON lines on stdin; each reply ends with `OK <cmd>` (or
`ERR <cmd> <reason>`), any data lines coming before it.

Threads: one acceptor; one handler thread per connection (it reads requests); for a
subscription connection also one writer thread draining that connection's queue, so every byte
a connection receives (acks, deliveries, injected misbehaviour) goes out in the order it was
queued. The server lock orders subscriptions against publishes.
"""

import argparse
import collections
import json
import os
import socket
import struct
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from google.protobuf import json_format  # noqa: E402

import pb  # noqa: E402
from truth import Truth  # noqa: E402

O = pb.orchestra
QUIET = False
FLUSH_TIMEOUT = 2.0  # how long a control command waits for queued bytes to reach the sockets
FIRST_REQUEST_TIMEOUT = 30.0  # a connection that sends nothing for this long is closed


def log(message):
    if not QUIET:
        print(f"peer: {message}", file=sys.stderr, flush=True)


class Conn:
    """One accepted connection. Becomes a subscription stream on its first Subscribe."""

    def __init__(self, server, sock, address):
        self.server = server
        self.sock = sock
        self.name = f"{address[0]}:{address[1]}"
        self.cond = threading.Condition()
        self.queue = collections.deque()  # ("frame" | "raw", bytes)
        self.busy = False  # the writer holds an item it has not finished writing
        self.closed = False
        self.die_armed = False  # cut the next frame in half, then close
        self.subs = {}  # subscription_id → topic, guarded by server.lock

    # Writing (subscription streams only) -------------------------------------------------------

    def start_writer(self):
        threading.Thread(target=self._writer, name=f"writer {self.name}", daemon=True).start()

    def enqueue(self, kind, data):
        with self.cond:
            if not self.closed:
                self.queue.append((kind, data))
                self.cond.notify_all()

    def _writer(self):
        while True:
            with self.cond:
                while not self.closed and (not self.queue or self.server.stall_remaining() > 0):
                    remaining = self.server.stall_remaining()
                    self.cond.wait(timeout=remaining if remaining > 0 else None)
                if self.closed:
                    return
                kind, data = self.queue.popleft()
                self.busy = True
                die = kind == "frame" and self.die_armed
            try:
                if die:
                    self.sock.sendall(data[: len(data) // 2])
                    self.close(f"died mid-frame after {len(data) // 2} of {len(data)} bytes")
                    return
                self.sock.sendall(data)
            except OSError as error:
                self.close(f"write failed: {error}")
                return
            finally:
                with self.cond:
                    self.busy = False
                    self.cond.notify_all()

    def flush(self, timeout=FLUSH_TIMEOUT):
        """Waits until everything queued is written, the connection closed, or a stall began."""
        with self.cond:
            self.cond.wait_for(
                lambda: self.closed or (not self.queue and not self.busy) or self.server.stall_remaining() > 0,
                timeout=timeout,
            )

    def wake(self):
        with self.cond:
            self.cond.notify_all()

    # Closing ----------------------------------------------------------------------------------

    def close(self, reason, abrupt=False):
        """Closes once; abrupt sends a TCP reset instead of an orderly end of stream."""
        with self.cond:
            if self.closed:
                return
            self.closed = True
            self.cond.notify_all()
        log(f"{self.name}: closed ({reason})")
        self.server.forget(self)
        try:
            if abrupt:
                self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.sock.shutdown(socket.SHUT_RD)  # wakes our reader without sending a FIN
            else:
                self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


class Server:
    def __init__(self, mode, truth):
        self.mode = mode
        self.truth = truth
        self.lock = threading.Lock()  # truth, conns, streams
        self.conns = set()  # every open connection
        self.streams = []  # open subscription connections, in subscription order
        self.stalled_until = 0.0
        self.listener = None
        self.acceptor = None  # the thread accepting on self.listener
        self.port = None

    # Listening --------------------------------------------------------------------------------

    def listen(self, port):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        sock.listen(64)
        sock.settimeout(0.2)  # the acceptor polls, so closing the listener stops it promptly
        self.listener = sock
        self.port = sock.getsockname()[1]
        self.acceptor = threading.Thread(target=self._accept, args=(sock,), name="acceptor", daemon=True)
        self.acceptor.start()

    def _accept(self, listener):
        while self.listener is listener:
            try:
                sock, address = listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return  # the listener was closed
            sock.settimeout(None)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn = Conn(self, sock, address)
            with self.lock:
                self.conns.add(conn)
            threading.Thread(target=self._handle, args=(conn,), name=f"conn {conn.name}", daemon=True).start()

    def stop_listening(self):
        """Stops listening; when it returns the port is free to bind again.

        close() alone does not free it: while the acceptor thread waits in accept() (a poll of up
        to 0.2 s), that call holds the socket and the kernel keeps it listening until it returns,
        so a rebind meanwhile fails with "Address already in use", SO_REUSEADDR or not.
        shutdown() stops the listening at once (Linux) and wakes the acceptor; once it has
        returned nothing holds the socket, and close() releases it.
        """
        listener, self.listener = self.listener, None
        acceptor, self.acceptor = self.acceptor, None
        if listener is None:
            return
        try:
            listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # not every system lets a listener be shut down; the join below still bounds it
        if acceptor is not None:
            acceptor.join()
        listener.close()

    # Stalls -----------------------------------------------------------------------------------

    def stall_remaining(self):
        return max(0.0, self.stalled_until - time.monotonic())

    def stall(self, seconds):
        self.stalled_until = time.monotonic() + seconds
        with self.lock:
            streams = list(self.streams)
        for conn in streams:
            conn.wake()

    # Connections ------------------------------------------------------------------------------

    def forget(self, conn):
        with self.lock:
            self.conns.discard(conn)
            if conn in self.streams:
                self.streams.remove(conn)

    def close_all(self, reason, abrupt):
        with self.lock:
            conns = list(self.conns)
        for conn in conns:
            conn.close(reason, abrupt=abrupt)

    def _read_request(self, conn):
        """Reads one PluginRequest; None (after closing the connection) on end, error or junk."""
        try:
            body = pb.read_frame(conn.sock)
        except (pb.FrameError, OSError) as error:
            conn.close(f"bad frame: {error}")
            return None
        if body is None:
            conn.close("end of stream")
            return None
        request = O.PluginRequest()
        try:
            request.ParseFromString(body)
        except Exception as error:  # DecodeError; never let a client's bytes crash the peer
            conn.close(f"not a PluginRequest ({len(body)} bytes): {error}")
            return None
        return request

    def _handle(self, conn):
        try:
            self._serve(conn)
        except Exception as error:  # a bug in the peer must not take the process down
            log(f"{conn.name}: internal error: {error!r}")
            conn.close("internal error")

    def _serve(self, conn):
        # A stalled peer accepts (the kernel does that anyway) but answers nothing.
        while self.stall_remaining() > 0:
            time.sleep(min(0.05, self.stall_remaining()))
        conn.sock.settimeout(FIRST_REQUEST_TIMEOUT)
        request = self._read_request(conn)
        if request is None:
            return
        conn.sock.settimeout(None)
        kind = request.WhichOneof("request")
        if kind != "subscribe":
            # A short connection: one request, one response, close.
            response = self.answer(request)
            if response is None:
                conn.close(f"unsupported request {kind!r}")
                return
            try:
                conn.sock.sendall(pb.frame(response))
            except OSError as error:
                conn.close(f"write failed: {error}")
                return
            conn.close(f"answered {kind}")
            return
        if self.mode in ("health-only", "health-only-reset"):
            # An orchestrator that does not route these topics: no ack, the stream just ends —
            # with an orderly close, or (health-only-reset) a TCP reset.
            conn.close(
                f"{self.mode}: refused subscribe to {request.subscribe.topic!r}",
                abrupt=self.mode == "health-only-reset",
            )
            return
        # A subscription stream: keep reading requests (more subscribes, unsubscribes) while the
        # writer delivers events.
        conn.start_writer()
        while request is not None:
            self._stream_request(conn, request)
            request = self._read_request(conn)

    def _stream_request(self, conn, request):
        kind = request.WhichOneof("request")
        if kind == "subscribe":
            sub = request.subscribe
            ack = O.PluginResponse(request_id=request.request_id)
            ack.event_delivery.subscription_id = sub.subscription_id
            ack.event_delivery.topic = sub.topic
            with self.lock:
                conn.subs[sub.subscription_id] = (sub.topic, request.request_id)
                if conn not in self.streams:
                    self.streams.append(conn)
                conn.enqueue("frame", pb.frame(ack))
            log(f"{conn.name}: subscribed {sub.subscription_id!r} to {sub.topic!r}")
        elif kind == "unsubscribe":
            with self.lock:
                conn.subs.pop(request.unsubscribe.subscription_id, None)
            log(f"{conn.name}: unsubscribed {request.unsubscribe.subscription_id!r}")
        else:
            response = self.answer(request)
            if response is None:
                log(f"{conn.name}: ignored {kind!r} on a subscription stream")
            else:
                conn.enqueue("frame", pb.frame(response))

    # Requests ---------------------------------------------------------------------------------

    def answer(self, request):
        """The response to a one-shot request, or None when the peer does not serve it."""
        kind = request.WhichOneof("request")
        response = O.PluginResponse(request_id=request.request_id)
        if kind == "health":
            response.health.status = O.HealthResult.HEALTHY
            response.health.message = "ok"
        elif kind == "tool_call":
            tool = request.tool_call.tool_name
            result = response.tool_call
            if tool == "board_snapshot" and self.mode == "full":
                # Arguments (project_id, sprint_id) are accepted and ignored: one board.
                with self.lock:
                    snapshot = self.truth.snapshot()
                result.success = True
                result.result.update(snapshot)
            else:
                result.success = False
                result.error_code = "unknown_tool"
                result.error_message = f"no tool named {tool!r}"
        elif kind == "unsubscribe":
            # As its own RPC: drop the subscription wherever it lives; the reply is empty.
            with self.lock:
                for conn in self.streams:
                    conn.subs.pop(request.unsubscribe.subscription_id, None)
        else:
            return None
        return response

    # Control ----------------------------------------------------------------------------------

    def publish(self, event, silent=False):
        """Applies an events.md envelope to the truth and delivers it to matching subscriptions."""
        topic = event.get("topic")
        payload = event.get("payload")
        if not isinstance(topic, str) or not isinstance(payload, dict):
            raise ValueError("event needs a string topic and an object payload")
        delivery = O.EventDelivery(
            topic=topic, event_type=str(event.get("event_type", "")),
            source_plugin=str(event.get("source", "wallboard-peer")))
        if "time" in event:
            delivery.timestamp.FromJsonString(event["time"])
        else:
            delivery.timestamp.GetCurrentTime()
        with self.lock:
            seq = event.get("seq")
            if seq is None:
                seq = self.truth.seq + 1
            if not isinstance(seq, int) or isinstance(seq, bool):
                raise ValueError("seq must be an integer")
            delivery.payload.update(dict(payload, seq=seq))
            applied = self.truth.apply(topic, payload, seq)
            if not applied:
                log(f"seq {seq} is a duplicate: delivered, not applied to the truth")
            streams = list(self.streams) if self.mode == "full" and not silent else []
            for conn in streams:
                for sid, (sub_topic, request_id) in conn.subs.items():
                    if sub_topic == topic:
                        response = O.PluginResponse(request_id=request_id)
                        response.event_delivery.CopyFrom(delivery)
                        response.event_delivery.subscription_id = sid
                        conn.enqueue("frame", pb.frame(response))
        for conn in streams:
            conn.flush()

    def to_streams(self, kind, data_for):
        with self.lock:
            streams = list(self.streams)
        for conn in streams:
            conn.enqueue(kind, data_for())
        for conn in streams:
            conn.flush()

    def restart(self, down_seconds):
        port = self.port
        self.stop_listening()
        self.close_all("restart", abrupt=False)
        time.sleep(down_seconds)
        self.listen(port)


def garbage():
    # Tag byte 0x0f is field 1 with wire type 7, which no protobuf decoder accepts; the rest is noise.
    body = b"\x0f" + os.urandom(63)
    return struct.pack(">I", len(body)) + body


def control(server, line, out):
    """Runs one control command; returns False after quit."""
    try:
        command = json.loads(line)
        name = command["cmd"]
    except (ValueError, KeyError, TypeError) as error:
        out(f"ERR ? bad command line: {error}")
        return True
    try:
        if name == "publish":
            server.publish(command["event"], silent=bool(command.get("silent", False)))
        elif name == "die_mid_frame":
            with server.lock:
                for conn in server.streams:
                    conn.die_armed = True
        elif name == "stall":
            server.stall(float(command["seconds"]))
        elif name == "garbage":
            server.to_streams("raw", garbage)
        elif name == "oversize":
            server.to_streams("raw", lambda: struct.pack(">I", 2**31 - 1))
        elif name == "inject":
            response = O.PluginResponse()
            json_format.ParseDict(command["response"], response)
            if command.get("unknown_fields"):
                pb.add_unknown_fields(response)
            server.to_streams("frame", lambda: pb.frame(response))
        elif name == "drop":
            server.close_all("drop", abrupt=True)
        elif name == "restart":
            server.restart(float(command.get("down_seconds", 0)))
        elif name == "snapshot":
            with server.lock:
                out(json.dumps(server.truth.snapshot(), sort_keys=True, ensure_ascii=False))
        elif name == "connections":
            with server.lock:
                out(str(len(server.streams)))
        elif name == "quit":
            out("OK quit")
            return False
        else:
            out(f"ERR {name} unknown command")
            return True
    except Exception as error:  # a bad command is reported, never fatal
        out(f"ERR {name} {type(error).__name__}: {error}")
        return True
    out(f"OK {name}")
    return True


def main():
    global QUIET
    parser = argparse.ArgumentParser(description="An Orchestra server for Wallboard's tests.")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--mode", choices=["full", "health-only", "health-only-reset", "silent"], default="full")
    parser.add_argument("--snapshot", help="initial truth, a board.snapshot payload (JSON)")
    parser.add_argument("--events", help="events.md JSON Lines applied to the truth at start")
    parser.add_argument("--quiet", action="store_true", help="no log lines on stderr")
    args = parser.parse_args()
    QUIET = args.quiet

    truth = Truth()
    if args.snapshot:
        with open(args.snapshot, encoding="utf-8") as f:
            truth = Truth(json.load(f))
    server = Server(args.mode, truth)
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
    log(f"listening on 127.0.0.1:{server.port} ({args.mode})")
    for line in sys.stdin:
        if line.strip() and not control(server, line, out):
            break
    # quit or end of stdin (the test that started us is gone): stop at once.
    server.stop_listening()
    server.close_all("quit", abrupt=False)
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
