#!/usr/bin/env python3
"""Command-line codec for interop tests, with Google's protobuf runtime on the other side.

  codec.py decode <Message>                    length-prefixed frames on stdin → one JSON line each
  codec.py encode <Message> [--unknown-fields] JSON lines on stdin → length-prefixed frames on stdout

<Message> is a message of orchestra.proto (PluginRequest, PluginResponse, EventDelivery, …) or a
well-known type (Struct, Value, ListValue, Timestamp). JSON is protobuf's JSON mapping with the
.proto field names (json_format, preserving_proto_field_name=True). --unknown-fields appends
fields 999 (varint), 998 (length-delimited), 997 (fixed32) and 996 (fixed64) to every message,
nested ones included, so decoders can be tested on skipping them.

Exit status: 0 on success, 1 on a bad frame or bad JSON (the reason goes to stderr; frames
already decoded have been printed).
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from google.protobuf import json_format, struct_pb2, timestamp_pb2  # noqa: E402

import pb  # noqa: E402

WELL_KNOWN = {
    "Struct": struct_pb2.Struct,
    "Value": struct_pb2.Value,
    "ListValue": struct_pb2.ListValue,
    "Timestamp": timestamp_pb2.Timestamp,
}


def message_class(name):
    if name in WELL_KNOWN:
        return WELL_KNOWN[name]
    cls = getattr(pb.orchestra, name, None)
    if cls is None or not hasattr(cls, "DESCRIPTOR"):
        names = sorted(pb.orchestra.DESCRIPTOR.message_types_by_name) + sorted(WELL_KNOWN)
        sys.exit(f"codec: unknown message {name!r}; one of: {', '.join(names)}")
    return cls


def decode(cls):
    out = sys.stdout
    for index, body in enumerate(pb.read_frames(sys.stdin.buffer)):
        message = cls()
        try:
            message.ParseFromString(body)
        except Exception as error:  # DecodeError and friends
            raise pb.FrameError(f"frame {index}: not a valid {cls.__name__}: {error}") from error
        as_dict = json_format.MessageToDict(message, preserving_proto_field_name=True)
        out.write(json.dumps(as_dict, ensure_ascii=False, sort_keys=True) + "\n")
        out.flush()


def encode(cls, unknown_fields):
    out = sys.stdout.buffer
    for number, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            continue
        message = cls()
        try:
            json_format.ParseDict(json.loads(line), message)
        except Exception as error:
            raise ValueError(f"line {number}: {error}") from error
        if unknown_fields:
            pb.add_unknown_fields(message)
        out.write(pb.frame(message))
        out.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("direction", choices=["decode", "encode"])
    parser.add_argument("message")
    parser.add_argument("--unknown-fields", action="store_true", help="encode: add fields 996–999")
    args = parser.parse_args()
    cls = message_class(args.message)
    try:
        if args.direction == "decode":
            decode(cls)
        else:
            encode(cls, args.unknown_fields)
    except (pb.FrameError, ValueError) as error:
        print(f"codec: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
