#!/usr/bin/env python3
"""A loopback tile server for the map page's test (MapTilesTests): every GET of a path ending in
.png is answered with one 256x256 PNG of a colour no other part of the page uses (magenta), made
here with zlib; anything else is 404. Each request's path goes, a line each, to LOG.
usage: tile_server.py PORT LOG"""
import struct, sys, zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def png(rgb, size=256):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    row = b"\x00" + bytes(rgb) * size
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * size)) + chunk(b"IEND", b""))


TILE = png((255, 0, 255))
LOG = open(sys.argv[2], "a", buffering=1)


class Tiles(BaseHTTPRequestHandler):
    def do_GET(self):
        LOG.write(self.path + "\n")
        if not self.path.split("?")[0].endswith(".png"):
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(TILE)))
        self.send_header("Cache-Control", "max-age=604800")
        self.end_headers()
        self.wfile.write(TILE)

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Tiles).serve_forever()
