#!/usr/bin/env python3
"""Check LBA-stamped sectors in a disk image, from the host.

    ide_check.py IMAGE START COUNT SEED [--zero START COUNT]...

Every 512-byte sector at absolute LBA L in [START, START+COUNT) must hold
the Linux peer's bench pattern (shared/peer/README.md): 64 little-endian
u64 words, w[0] = L, w[1] = SEED, w[i] = L ^ SEED ^ (i * 0x9E3779B97F4A7C15)
mod 2^64.  Each --zero range must be all zero bytes (nothing written
there).  Prints nothing and exits 0 when all is well; otherwise prints the
first problems and how many sectors are bad, and exits 1.
"""
import struct
import sys

GOLDEN = 0x9E3779B97F4A7C15
MASK = (1 << 64) - 1


def expected(lba, seed):
    words = [lba, seed] + [(lba ^ seed ^ (i * GOLDEN)) & MASK for i in range(2, 64)]
    return struct.pack("<64Q", *words)


def main(argv):
    if len(argv) < 5 or (len(argv) - 5) % 3:
        print(__doc__.strip().splitlines()[2].strip())
        return 2
    image, start, count, seed = argv[1], int(argv[2], 0), int(argv[3], 0), int(argv[4], 0)
    zeros = [(int(argv[i + 1], 0), int(argv[i + 2], 0)) for i in range(5, len(argv), 3)]
    bad, shown = 0, 0
    with open(image, "rb") as f:
        f.seek(start * 512)
        for lba in range(start, start + count):
            got = f.read(512)
            if got != expected(lba, seed):
                bad += 1
                if shown < 5:
                    w0, w1 = struct.unpack_from("<2Q", got.ljust(16, b"\0"))
                    print("LBA %d: w0=%#x w1=%#x, wanted w0=%#x w1=%#x" % (lba, w0, w1, lba, seed))
                    shown += 1
        for zstart, zcount in zeros:
            f.seek(zstart * 512)
            data = f.read(zcount * 512)
            if data.strip(b"\0") or len(data) != zcount * 512:
                nz = next(i for i, b in enumerate(data.ljust(zcount * 512, b"\1")) if b)
                print("LBA %d: not zero (outside the stamped range)" % (zstart + nz // 512))
                bad += 1
    if bad:
        print("%d bad sectors" % bad)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
