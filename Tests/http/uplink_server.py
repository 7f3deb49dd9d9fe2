#!/usr/bin/env python3
"""A small HTTP server for gpstrackd's uplink tests, on loopback.

Usage: uplink_server.py PORT LOG MODEFILE [CERT KEY [CLIENT_CA]]
With CERT and KEY it speaks HTTPS (TLS with that certificate and key); with CLIENT_CA too it
asks for a client certificate and refuses a connection without one that CLIENT_CA signed.
Every request is appended to LOG as one JSON line (method, path, query, headers, body, the
status answered, the time). MODEFILE, read at each request, says how to answer: a status
("200", "404", "503"), or "slow" (the reply trickles for a minute), "huge" (a 10 MB body),
"malformed" (bytes that are no HTTP), "cmd" (200 with an OwnTracks command array: the
lines after the first, else one reportLocation), "cmdonce" (as "cmd" for one request, then
"200"). Keep-alive (HTTP/1.1), as a real server keeps it.
"""
import json, ssl, sys, threading, time, urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, log_path, mode_path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
mode_lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def mode(self):
        """The mode and the command array to answer (the mode file's later lines); a
        "cmdonce" is taken: the next request gets "200"."""
        with mode_lock:
            try:
                with open(mode_path) as f:
                    first, _, rest = f.read().strip().partition("\n")
            except OSError:
                return "200", ""
            if first == "cmdonce":
                with open(mode_path, "w") as f:
                    f.write("200")
            return (first.strip() or "200"), rest.strip()

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        url = urllib.parse.urlsplit(self.path)
        mode, commands = self.mode()
        if mode == "cmdonce":
            mode = "cmd"
        status = int(mode) if mode.isdigit() else 200 if mode == "cmd" else 0
        entry = {"method": self.command, "path": url.path, "query": url.query,
                 "headers": {k: v for k, v in self.headers.items()},
                 "body": body.decode("utf-8", "replace"), "status": status or mode, "time": time.time()}
        with open(log_path, "a") as f:
            f.write(json.dumps(entry) + "\n")
        if mode == "malformed":
            self.wfile.write(b"\x00\x01garbage that is no HTTP\r\n\r\n")
            self.close_connection = True
            return
        if mode == "huge":
            self.send_response(200)
            self.send_header("Content-Length", str(10 * 1024 * 1024))
            self.end_headers()
            chunk = b"x" * 65536
            try:
                for _ in range(160):
                    self.wfile.write(chunk)
            except OSError:
                pass
            self.close_connection = True
            return
        if mode == "slow":
            self.send_response(200)
            self.send_header("Content-Length", "60")
            self.end_headers()
            try:
                for _ in range(60):
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(1)  # paces the slow answer, a byte a second (not a wait)
            except OSError:
                pass
            self.close_connection = True
            return
        text = b"OK" if 200 <= status < 300 else b"Unknown device: not registered"
        if mode == "cmd":
            text = commands.encode() or b'[{"_type":"cmd","action":"reportLocation"}]'
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        self.wfile.write(text)

    do_GET = answer
    do_POST = answer


ThreadingHTTPServer.allow_reuse_address = True
server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
if len(sys.argv) > 5:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[4], sys.argv[5])
    if len(sys.argv) > 6:
        context.verify_mode = ssl.CERT_REQUIRED
        context.load_verify_locations(sys.argv[6])
    # The handshake in the handler's thread, not the accepting one: a client that fails it
    # must not stop the server.
    server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
server.serve_forever()
