#!/usr/bin/env python3
"""A QMP client of the standard library's: `qmp.py SOCKET screendump FILE.png` asks QEMU (7.1 or
later) for a PNG of the guest's screen."""
import json
import socket
import sys


class QMP:
    def __init__(self, path, timeout=20):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.file = self.sock.makefile("rwb")
        self.read()  # the greeting
        self.command("qmp_capabilities")

    def read(self):
        while True:
            line = self.file.readline()
            if not line:
                raise EOFError("QMP closed the connection")
            message = json.loads(line)
            if "event" not in message:
                return message

    def command(self, name, **arguments):
        request = {"execute": name}
        if arguments:
            request["arguments"] = arguments
        self.file.write(json.dumps(request).encode() + b"\n")
        self.file.flush()
        reply = self.read()
        if "error" in reply:
            raise RuntimeError(f"{name}: {reply['error']}")
        return reply.get("return")


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[2] != "screendump":
        sys.exit(__doc__)
    QMP(sys.argv[1]).command("screendump", filename=sys.argv[3], format="png")
