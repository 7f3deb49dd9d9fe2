#!/usr/bin/env python3
"""A loopback tile server for the map page's test (MapTilesTests): every GET of a path ending in
.png is answered with one 256x256 PNG of a colour no other part of the page uses (magenta), made
here with zlib; anything else is 404. Each request's path goes, a line each, to LOG. With STYLE
"pale" the tile is a pale paper colour with its edges drawn, for the docs' screenshot.
usage: tile_server.py PORT LOG [magenta|pale]"""
import struct, sys, zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def png(rgb, edge=None, size=256):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    plain = bytes(rgb) * size
    edged = bytes(edge or rgb) + bytes(rgb) * (size - 1)
    rows = b"".join(b"\x00" + (bytes(edge or rgb) * size if y == 0 else edged) for y in range(size))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


STYLE = sys.argv[3] if len(sys.argv) > 3 else "magenta"
TILE = png((232, 228, 216), edge=(200, 196, 186)) if STYLE == "pale" else png((255, 0, 255))
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
