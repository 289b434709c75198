"""Shared helpers for the Orchestra test peer: compile orchestra.proto, frame and unframe.

orchestra.proto is compiled at run time with `protoc` (Debian's protobuf-compiler; $PROTOC
overrides it) into $TMPDIR/wallboard-peer-<first 16 hex of sha256(proto, protoc version)>/,
once per proto and compiler version, so nothing generated is committed and several peers
starting at once share one compilation. The well-known types (struct.proto, timestamp.proto)
come from protoc's own include folder (/usr/include, Debian's libprotobuf-dev).
"""

import hashlib
import os
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO = os.path.join(HERE, "orchestra.proto")

# The protocol's maximum message size (orchestra-protocol.md, "Framing").
MAX_FRAME = 16 * 1024 * 1024


def _protoc():
    """The protoc command and its version line; exits with a clear message when it is missing."""
    protoc = os.environ.get("PROTOC") or shutil.which("protoc") or "/usr/bin/protoc"
    try:
        version = subprocess.run([protoc, "--version"], check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        sys.exit(f"orchestra peer: cannot run protoc ({error}); install protobuf-compiler (make test-deps)")
    return protoc, version.strip()


def _compile():
    """Compiles orchestra.proto if this version is not cached yet; returns the module."""
    protoc, version = _protoc()
    digest = hashlib.sha256()
    with open(PROTO, "rb") as f:
        digest.update(f.read())
    digest.update(version.encode())
    digest = digest.hexdigest()[:16]
    out = os.path.join(tempfile.gettempdir(), f"wallboard-peer-{digest}")
    if not os.path.exists(os.path.join(out, "orchestra_pb2.py")):
        # Compile into a private directory, then rename into place: concurrent peers never see
        # a half-written module, and the loser of a race simply discards its copy.
        staging = tempfile.mkdtemp(prefix=f"wallboard-peer-{digest}-")
        try:
            subprocess.run([protoc, f"-I{HERE}", f"--python_out={staging}", PROTO], check=True)
            try:
                os.rename(staging, out)
            except OSError:
                pass  # another process won the race; its copy is identical
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    if out not in sys.path:
        sys.path.insert(0, out)
    import orchestra_pb2  # noqa: E402  (generated)

    return orchestra_pb2


orchestra = _compile()


class FrameError(Exception):
    """A frame that breaks the protocol (too long, truncated)."""


def frame(message):
    """[4-byte big-endian length][protobuf] for one message (or raw bytes)."""
    body = message if isinstance(message, (bytes, bytearray)) else message.SerializeToString()
    return struct.pack(">I", len(body)) + body


def recv_exact(sock, n):
    """Reads exactly n bytes; None on a clean end of stream before the first byte."""
    chunks = []
    got = 0
    while got < n:
        chunk = sock.recv(min(n - got, 1 << 16))
        if not chunk:
            if got == 0:
                return None
            raise FrameError(f"stream ended after {got} of {n} bytes")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def read_frame(sock, limit=MAX_FRAME):
    """Reads one frame's body; None at a clean end of stream; FrameError if it breaks the rules.

    The length is checked against the limit before anything is allocated.
    """
    head = recv_exact(sock, 4)
    if head is None:
        return None
    (length,) = struct.unpack(">I", head)
    if length > limit:
        raise FrameError(f"frame of {length} bytes exceeds the {limit}-byte limit")
    body = recv_exact(sock, length) if length else b""
    if body is None:
        raise FrameError(f"stream ended after the length prefix ({length} bytes announced)")
    return body


def read_frames(stream, limit=MAX_FRAME):
    """Yields frame bodies from a binary file object until its end."""
    while True:
        head = stream.read(4)
        if not head:
            return
        if len(head) < 4:
            raise FrameError(f"truncated length prefix ({len(head)} bytes)")
        (length,) = struct.unpack(">I", head)
        if length > limit:
            raise FrameError(f"frame of {length} bytes exceeds the {limit}-byte limit")
        body = stream.read(length)
        if len(body) < length:
            raise FrameError(f"truncated frame: {len(body)} of {length} bytes")
        yield body


def _varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


# Unknown fields appended by add_unknown_fields: one of each wire type a decoder must skip.
UNKNOWN_FIELDS = (
    _varint(999 << 3 | 0) + _varint(300)  # varint
    + _varint(998 << 3 | 2) + _varint(5) + b"extra"  # length-delimited
    + _varint(997 << 3 | 5) + struct.pack("<I", 0xDEADBEEF)  # fixed32
    + _varint(996 << 3 | 1) + struct.pack("<Q", 0x0123456789ABCDEF)  # fixed64
)


def _is_repeated(field):
    # protobuf 7 has FieldDescriptor.is_repeated; older runtimes only have label.
    if hasattr(field, "is_repeated"):
        return field.is_repeated
    return field.label == field.LABEL_REPEATED


def add_unknown_fields(message):
    """Appends fields 999 (varint), 998 (bytes), 997 (fixed32), 996 (fixed64) to the message and
    to every nested message that is set, recursing into repeated and map fields too.

    Works on the decoded form: each message keeps the unknown bytes and re-emits them when
    serialised (python protobuf preserves unknown fields), so the result nests them properly.
    """
    for field, value in message.ListFields():
        if field.message_type is None:
            continue
        if field.message_type.GetOptions().map_entry:
            # Map values of message type (Struct.fields → Value): recurse into each value.
            value_field = field.message_type.fields_by_name["value"]
            if value_field.message_type is not None:
                for key in value:
                    add_unknown_fields(value[key])
            continue
        if _is_repeated(field):
            for item in value:
                add_unknown_fields(item)
        else:
            add_unknown_fields(value)
    message.MergeFromString(UNKNOWN_FIELDS)
