#!/usr/bin/env python3
"""ext4 checksums computed on the host, independently of our C code, for
tests/host/ext4_inodes.sh (ext4 wiki "Checksums": crc32c, Castagnoli
polynomial, reflected, no final inversion as ext4 stores it).

    ext4_csum.py sbfix IMG       recompute the superblock's s_checksum
    ext4_csum.py inode IMG INO   print "ok" or "bad" for inode INO's checksum
"""
import struct
import sys

POLY = 0x82F63B78
TABLE = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ POLY if c & 1 else c >> 1
    TABLE.append(c)


def crc32c(seed, data):
    c = seed
    for b in data:
        c = TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c


def sbfix(img):
    with open(img, "r+b") as f:
        f.seek(1024)
        sb = f.read(1024)
        f.seek(1024 + 1020)
        f.write(struct.pack("<I", crc32c(0xFFFFFFFF, sb[:1020])))


def inode_ok(img, ino):
    with open(img, "rb") as f:
        f.seek(1024)
        sb = f.read(1024)
        bsize = 1024 << struct.unpack_from("<I", sb, 24)[0]
        ipg = struct.unpack_from("<I", sb, 40)[0]
        isize = struct.unpack_from("<H", sb, 88)[0]
        incompat = struct.unpack_from("<I", sb, 96)[0]
        desc = struct.unpack_from("<H", sb, 254)[0] if incompat & 0x80 else 32
        seed = struct.unpack_from("<I", sb, 0x270)[0] if incompat & 0x2000 \
            else crc32c(0xFFFFFFFF, sb[104:120])
        first_data = struct.unpack_from("<I", sb, 20)[0]
        g, idx = (ino - 1) // ipg, (ino - 1) % ipg
        f.seek((first_data + 1) * bsize + g * desc + 8)
        itab = struct.unpack("<I", f.read(4))[0]
        f.seek(itab * bsize + idx * isize)
        slot = bytearray(f.read(isize))
    gen = slot[100:104]
    iseed = crc32c(crc32c(seed, struct.pack("<I", ino)), gen)
    stored = struct.unpack_from("<H", slot, 124)[0]
    extra = struct.unpack_from("<H", slot, 128)[0] if isize > 128 else 0
    has_hi = isize > 128 and extra >= 4
    if has_hi:
        stored |= struct.unpack_from("<H", slot, 130)[0] << 16
        slot[130:132] = b"\0\0"
    slot[124:126] = b"\0\0"
    got = crc32c(iseed, bytes(slot))
    if not has_hi:
        got &= 0xFFFF
    return got == stored


if __name__ == "__main__":
    if sys.argv[1] == "sbfix":
        sbfix(sys.argv[2])
    else:
        print("ok" if inode_ok(sys.argv[2], int(sys.argv[3])) else "bad")
