#!/usr/bin/env python3
"""Patch a FAT image the way the corruption tests need, reading the BPB
itself (fatgen103 layout), so the tests need no other tool's idea of it.

  fatpatch.py IMG setfat CLUSTER VALUE    every FAT copy: entry CLUSTER = VALUE
  fatpatch.py IMG getfat CLUSTER          print FAT copy 0's entry
  fatpatch.py IMG bpb OFFSET SIZE VALUE   boot sector field (1, 2 or 4 bytes)
  fatpatch.py IMG info                    type clusters data_start csize
  fatpatch.py IMG rootslot N HEX          overwrite root directory slot N (FAT12/16)
  fatpatch.py IMG rootget N               print root directory slot N in hex
"""
import struct
import sys


def geom(img):
    with open(img, 'rb') as f:
        b = f.read(512)
    bps, spc, rsvd, nfats, rootents, tot16, _, fatsz16 = struct.unpack_from('<HBHBHHBH', b, 11)
    tot32, = struct.unpack_from('<I', b, 32)
    fatsz = fatsz16 or struct.unpack_from('<I', b, 36)[0]
    total = tot16 or tot32
    rootsecs = rootents * 32 // bps
    data = rsvd + nfats * fatsz + rootsecs
    clusters = (total - data) // spc
    typ = 12 if clusters < 4085 else 16 if clusters < 65525 else 32
    return dict(bps=bps, spc=spc, rsvd=rsvd, nfats=nfats, fatsz=fatsz, data=data,
                clusters=clusters, type=typ, root=rsvd + nfats * fatsz)


def fat_rw(f, g, copy, clus, val=None):
    base = (g['rsvd'] + copy * g['fatsz']) * g['bps']
    t = g['type']
    if t == 12:
        off = base + clus + clus // 2
        f.seek(off)
        w, = struct.unpack('<H', f.read(2))
        if val is None:
            return w >> 4 if clus & 1 else w & 0xFFF
        w = (w & 0xF) | (val << 4) if clus & 1 else (w & 0xF000) | val
        f.seek(off)
        f.write(struct.pack('<H', w))
    else:
        size = 2 if t == 16 else 4
        f.seek(base + clus * size)
        if val is None:
            return struct.unpack('<H' if size == 2 else '<I', f.read(size))[0]
        f.write(struct.pack('<H' if size == 2 else '<I', val))
    return None


def main():
    img, op = sys.argv[1], sys.argv[2]
    g = geom(img)
    with open(img, 'r+b') as f:
        if op == 'setfat':
            for c in range(g['nfats']):
                fat_rw(f, g, c, int(sys.argv[3], 0), int(sys.argv[4], 0))
        elif op == 'getfat':
            print(hex(fat_rw(f, g, 0, int(sys.argv[3], 0))))
        elif op == 'bpb':
            off, size, val = (int(x, 0) for x in sys.argv[3:6])
            f.seek(off)
            f.write(val.to_bytes(size, 'little'))
        elif op == 'info':
            print(g['type'], g['clusters'], g['data'], g['bps'] * g['spc'])
        elif op == 'rootslot':
            f.seek(g['root'] * g['bps'] + int(sys.argv[3]) * 32)
            f.write(bytes.fromhex(sys.argv[4]))
        elif op == 'rootget':
            f.seek(g['root'] * g['bps'] + int(sys.argv[3]) * 32)
            print(f.read(32).hex())
        else:
            sys.exit('unknown operation ' + op)


main()
