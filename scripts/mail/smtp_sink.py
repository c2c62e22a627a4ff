#!/usr/bin/env python3
"""A real SMTP server for the tests (aiosmtpd): it accepts every mail on 127.0.0.1 and stores
each as one file, DIR/NNNNNN.eml (the message as received, after a first line
`X-Sink-Rcpt-To: …` with the envelope's recipients), written to a temporary name and renamed,
so a reader never sees half a mail. It listens on a port the system chooses and writes that
port to --port-file once it accepts connections. It stops on SIGTERM/SIGINT, or by itself after
--max-secs, so that it never outlives the test run.

    python3 scripts/mail/smtp_sink.py --dir DIR --port-file FILE [--max-secs 3600]
"""

import argparse
import asyncio
import itertools
import os
import signal

from aiosmtpd.smtp import SMTP


class Store:
    def __init__(self, directory):
        self.directory = directory
        self.numbers = itertools.count(1)

    async def handle_DATA(self, server, session, envelope):
        n = next(self.numbers)
        head = "X-Sink-Rcpt-To: " + ", ".join(envelope.rcpt_tos) + "\r\n"
        content = envelope.original_content or envelope.content
        if isinstance(content, str):
            content = content.encode("utf-8")
        tmp = os.path.join(self.directory, f".{n:06d}.tmp")
        with open(tmp, "wb") as f:
            f.write(head.encode("utf-8") + content)
        os.replace(tmp, os.path.join(self.directory, f"{n:06d}.eml"))
        return "250 Message accepted for delivery"


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--max-secs", type=float, default=3600)
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    handler = Store(args.dir)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(
        lambda: SMTP(handler, enable_SMTPUTF8=True, hostname="smtp-sink.test"), "127.0.0.1", 0
    )
    port = server.sockets[0].getsockname()[1]
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(f"{port}\n")
    os.replace(tmp, args.port_file)
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        await asyncio.wait_for(stop.wait(), timeout=args.max_secs)
    except asyncio.TimeoutError:
        pass
    server.close()
    await server.wait_closed()


if __name__ == "__main__":
    asyncio.run(main())
