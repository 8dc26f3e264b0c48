#!/usr/bin/env python3
"""Take a QEMU screendump over QMP and check that lines of text are on the
screen, exactly as the framebuffer console's font draws them.

usage: fbcon-check.py QMP_SOCKET SHOT.ppm FONT.psf.gz COL:TEXT [COL:TEXT ...]

The expected text is rendered on the host from the same PSF font
(tools/psf2c.py's loader) and compared, pixel by pixel, with every text
row of the screenshot at column COL: a pixel is ink when it is brighter
than the background.  Prints one line per TEXT (the row where it was
found) and exits 0 when every TEXT was found, 1 otherwise.
"""
import json
import os
import socket
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
import psf2c  # noqa: E402

INK_LEVEL = 60		# a channel sum above this is text, below is background


def qmp_screendump(path, shot):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(30)
    s.connect(path)
    f = s.makefile("rw")

    def reply():
        while True:
            m = json.loads(f.readline())
            if "return" in m or "error" in m:
                return m

    json.loads(f.readline())		# greeting
    f.write(json.dumps({"execute": "qmp_capabilities"}) + "\n")
    f.flush()
    reply()
    f.write(json.dumps({"execute": "screendump", "arguments": {"filename": shot}}) + "\n")
    f.flush()
    m = reply()
    s.close()
    if "error" in m:
        raise SystemExit("screendump failed: %s" % m["error"])


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:		# P6 width height maxval, whitespace separated
        while data[pos:pos + 1].isspace():
            pos += 1
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        fields.append(data[start:pos])
    pos += 1
    assert fields[0] == b"P6", "not a binary PPM"
    return int(fields[1]), int(fields[2]), data[pos:]


def main(argv):
    if len(argv) < 5:
        sys.stderr.write(__doc__)
        return 2
    sock, shot, font = argv[1], argv[2], argv[3]
    qmp_screendump(sock, shot)
    fw, fh, glyphs = psf2c.load(font)
    w, h, px = read_ppm(shot)
    stride = (fw + 7) // 8

    def ink(x, y):
        i = (y * w + x) * 3
        return px[i] + px[i + 1] + px[i + 2] > INK_LEVEL

    def matches(text, col, row):
        x0, y0 = col * fw, row * fh
        if x0 + len(text) * fw > w or y0 + fh > h:
            return False
        for k, ch in enumerate(text.encode("latin-1")):
            g = glyphs[ch]
            for y in range(fh):
                bits = int.from_bytes(g[y * stride:(y + 1) * stride], "big")
                for x in range(fw):
                    want = bool(bits & (1 << (stride * 8 - 1 - x)))
                    if ink(x0 + k * fw + x, y0 + y) != want:
                        return False
        return True

    missing = 0
    for spec in argv[4:]:
        col, text = spec.split(":", 1)
        rows = [r for r in range(h // fh) if matches(text, int(col), r)]
        if rows:
            print("on screen, text row %d: %r" % (rows[0], text))
        else:
            print("NOT on screen (%dx%d shot, %dx%d font): %r" % (w, h, fw, fh, text))
            missing += 1
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
