#!/usr/bin/env python3
"""Damage partition tables on purpose, for the malformed-image tests.

    patch.py flip IMG OFFSET                 invert one byte
    patch.py mbr-entry IMG SLOT START SIZE TYPE   rewrite primary entry SLOT (1-4)
    patch.py ebr-loop IMG                    point the last EBR's link back at
                                             the second EBR (or the first)
    patch.py gpt-field IMG LBA FIELD VALUE [BS] [--keep-crc]
                                             set a GPT header field; the header
                                             CRC is recomputed unless --keep-crc

Offsets follow UEFI 2.10 tables 5.5/5.6 and the MBR layout (partition
table at 446, 16-byte entries, LBA at +8, size at +12, type at +4).
"""
import struct
import sys
import zlib

GPT_FIELDS = {  # name: (offset, struct format)
    "header_size": (12, "<I"),
    "header_crc32": (16, "<I"),
    "my_lba": (24, "<Q"),
    "alternate_lba": (32, "<Q"),
    "last_usable_lba": (48, "<Q"),
    "entries_lba": (72, "<Q"),
    "num_entries": (80, "<I"),
    "entry_size": (84, "<I"),
}


def rw(path, off, n, new=None):
    with open(path, "r+b") as f:
        f.seek(off)
        old = f.read(n)
        if new is not None:
            f.seek(off)
            f.write(new)
        return old


def mbr_entry_bytes(start, size, typ):
    return struct.pack("<B3sB3sII", 0, b"\0\0\0", typ, b"\0\0\0", start, size)


def ebr_chain(path):
    """The LBAs of the EBRs of the first extended partition, in chain order."""
    mbr = rw(path, 0, 512)
    for i in range(4):
        e = mbr[446 + 16 * i: 462 + 16 * i]
        if e[4] in (0x05, 0x0F, 0x85):
            ext = struct.unpack_from("<I", e, 8)[0]
            break
    else:
        sys.exit("no extended partition")
    chain, ebr = [], ext
    while ebr not in chain and len(chain) < 64:
        chain.append(ebr)
        link = rw(path, ebr * 512 + 462, 16)
        if link[4] not in (0x05, 0x0F, 0x85):
            break
        ebr = ext + struct.unpack_from("<I", link, 8)[0]
    return ext, chain


def main(a):
    cmd, img = a[0], a[1]
    if cmd == "flip":
        off = int(a[2], 0)
        rw(img, off, 1, bytes([rw(img, off, 1)[0] ^ 0xFF]))
    elif cmd == "mbr-entry":
        slot, start, size, typ = (int(x, 0) for x in a[2:6])
        rw(img, 446 + 16 * (slot - 1), 16, mbr_entry_bytes(start, size, typ))
    elif cmd == "ebr-loop":
        ext, chain = ebr_chain(img)
        target = chain[1] if len(chain) > 1 else chain[0]
        rw(img, chain[-1] * 512 + 462, 16, mbr_entry_bytes(target - ext, 1, 0x05))
    elif cmd == "gpt-field":
        lba, field, value = int(a[2], 0), a[3], int(a[4], 0)
        rest = a[5:]
        keep = "--keep-crc" in rest
        rest = [x for x in rest if x != "--keep-crc"]
        bs = int(rest[0]) if rest else 512
        off, fmt = GPT_FIELDS[field]
        base = lba * bs
        rw(img, base + off, struct.calcsize(fmt), struct.pack(fmt, value))
        if not keep:
            hdr = bytearray(rw(img, base, bs))
            size = struct.unpack_from("<I", hdr, 12)[0]
            struct.pack_into("<I", hdr, 16, 0)
            crc = zlib.crc32(bytes(hdr[:size])) & 0xFFFFFFFF
            rw(img, base + 16, 4, struct.pack("<I", crc))
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main(sys.argv[1:])
