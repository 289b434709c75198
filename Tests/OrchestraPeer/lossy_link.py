#!/usr/bin/env python3
"""A lossy, slow UDP link on loopback, for the QUIC tests: relays datagrams between clients and
a server port, dropping a share of them and delaying the rest, in each direction on its own.

    python3 -B lossy_link.py --target PORT [--loss 0.1] [--delay 0.05] [--seed N]

It binds 127.0.0.1 on a free port and prints one line, `PORT <n>`; a client that sends to that
port is given a socket of its own towards the target (so the server sees one address per
client, as on a real link), and the server's answers go back through it. Every datagram, both
ways, is dropped with probability --loss and otherwise delivered --delay seconds later (order
kept: a fixed delay). The random numbers are seeded, so a run can be repeated. A line `loss X`
on stdin sets the share dropped from then on (`loss 1` makes a link that went dead). It serves until
its stdin ends (a test that dies takes it along), then prints what it did:
`COUNTS <up> <down> <dropped up> <dropped down>` (datagrams).

Why not netem: the kernels these tests run on may have no sch_netem (a Firecracker guest here
has none); a relay in user space needs nothing but Python.
"""

import argparse
import asyncio
import random
import sys


class Link:
    def __init__(self, loop, target, loss, delay, rng):
        self.loop = loop
        self.target = ("127.0.0.1", target)
        self.loss = loss
        self.delay = delay
        self.rng = rng
        self.front = None
        self.backs = {}
        self.counts = {"up": 0, "down": 0, "dropped_up": 0, "dropped_down": 0}

    def send_later(self, transport, data, addr, way):
        if self.rng.random() < self.loss:
            self.counts["dropped_" + way] += 1
            return
        self.counts[way] += 1
        self.loop.call_later(self.delay, lambda: transport.is_closing() or transport.sendto(data, addr))

    async def back_for(self, client):
        back = self.backs.get(client)
        if back is None:
            link = self

            class Back(asyncio.DatagramProtocol):
                def datagram_received(self, data, addr):
                    link.send_later(link.front, data, client, "down")

                def error_received(self, exc):
                    pass  # the server's port unreachable: a restarting server; the client retries

            back, _ = await self.loop.create_datagram_endpoint(Back, remote_addr=self.target)
            self.backs[client] = back
        return back


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", type=int, required=True)
    parser.add_argument("--loss", type=float, default=0.1)
    parser.add_argument("--delay", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args()
    loop = asyncio.get_running_loop()
    link = Link(loop, args.target, args.loss, args.delay, random.Random(args.seed))
    pending = set()

    class Front(asyncio.DatagramProtocol):
        def datagram_received(self, data, addr):
            async def relay():
                back = await link.back_for(addr)
                link.send_later(back, data, None, "up")

            task = loop.create_task(relay())
            pending.add(task)
            task.add_done_callback(pending.discard)

    link.front, _ = await loop.create_datagram_endpoint(Front, local_addr=("127.0.0.1", 0))
    print("PORT", link.front.get_extra_info("sockname")[1], flush=True)
    # Until stdin ends; a line `loss X` sets the share dropped from then on (1: a link gone dead).
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            break
        words = line.split()
        if len(words) == 2 and words[0] == "loss":
            link.loss = float(words[1])
            print("OK loss", flush=True)
    c = link.counts
    print(f"COUNTS {c['up']} {c['down']} {c['dropped_up']} {c['dropped_down']}", flush=True)
    for b in link.backs.values():
        b.close()
    link.front.close()


if __name__ == "__main__":
    asyncio.run(main())
