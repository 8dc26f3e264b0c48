#!/usr/bin/env python3
"""Write fuzz seeds (the format of tests/fuzz/fuzz_disk.h) from disk images.

    mkseeds.py OUTDIR IMAGE.raw[:BLOCKSIZE] ...

Each seed keeps the first and last few blocks of an image (the MBR, the
primary GPT and its array; the backup array and header) and its capacity.
"""
import os
import struct
import sys


def seed(path, bs):
    size = os.path.getsize(path)
    blocks = size // bs
    keep = 40 if bs == 512 else 8          # GPT array: 32 blocks of 512, 4 of 4096
    keep = min(keep, blocks // 2)
    with open(path, "rb") as f:
        head = f.read(keep * bs)
        f.seek((blocks - keep) * bs)
        tail = f.read(keep * bs)
    flags = (1 if bs == 4096 else 0) | (14 << 1)   # minors limit 15
    return struct.pack("<BQ", flags, blocks) + head + tail


def ebr_chain_seed():
    """A 64-block dos disk whose EBR chain lies within the seed's head."""
    disk = bytearray(64 * 512)

    def entry(lba, slot, typ, start, size):
        struct.pack_into("<B3sB3sII", disk, lba * 512 + 446 + 16 * slot,
                         0, b"", typ, b"", start, size)
        disk[lba * 512 + 510:lba * 512 + 512] = b"\x55\xaa"

    entry(0, 0, 0x83, 2, 6)
    entry(0, 1, 0x0F, 8, 24)                   # extended: blocks 8..31
    for i, ebr in enumerate((8, 16, 24)):
        entry(ebr, 0, 0x83, 1, 6)              # logical, from its EBR
        if i < 2:
            entry(ebr, 1, 0x05, (ebr + 8) - 8, 8)  # link to ebr+8, from the extended start
    return struct.pack("<BQ", 14 << 1, 64) + bytes(disk)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "seed-ebr-chain"), "wb") as f:
        f.write(ebr_chain_seed())
    for arg in sys.argv[2:]:
        path, _, bs = arg.partition(":")
        name = os.path.basename(path).rsplit(".", 1)[0]
        with open(os.path.join(out, "seed-" + name), "wb") as f:
            f.write(seed(path, int(bs or 512)))


if __name__ == "__main__":
    main()
