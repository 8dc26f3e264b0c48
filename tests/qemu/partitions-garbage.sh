#!/usr/bin/env bash
# Garbage partition tables through the kernel's scan (genhd, the dos and
# GPT parsers, partition registration), many in one boot: tables made
# here from a fixed seed -- random dos entries, extended partitions whose
# EBR chains loop, leave the container or point anywhere, GPT headers
# with a correct CRC but absurd fields (usable range, array position,
# entry count and size), entry arrays with a correct CRC but absurd or
# overlapping LBAs, hybrid MBRs -- are written over the start of a scratch
# disk one after another with dd, each followed by rereadpt and part.
# Every scan must finish without a panic, and every partition the kernel
# keeps must lie inside the disk, after LBA 0, and overlap no other one
# (logical partitions only overlap their extended container).
. "$(dirname "$0")/lib.bash"
export PATH=$PATH:/usr/sbin:/sbin E2FSPROGS_FAKE_TIME=1700000000

dir=$logdir/partitions-garbage
rm -rf "$dir" && mkdir -p "$dir/tables"
disk_sectors=131072	# the scratch disk: 64 MiB
ntables=24
python3 - "$dir/tables" "$disk_sectors" "$ntables" <<'PY'
import random, struct, sys, zlib
out, nr, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(20261203)
SPAN = 128                      # sectors written per table: 64 KiB
EXT = (0x05, 0x0F, 0x85)

def lba():                      # a block number: sane, near the ends, or absurd
    return rng.choice([rng.randrange(1, SPAN), rng.randrange(1, nr), nr - rng.randrange(1, 40),
                       nr + rng.randrange(0, 100), rng.randrange(1 << 32), (1 << 64) - rng.randrange(1, 9)])

def mbr_entry(typ, start, size, boot=0):
    return struct.pack("<B3sB3sII", boot, b"\0\0\0", typ, b"\0\0\0", start & 0xFFFFFFFF, size & 0xFFFFFFFF)

def put_table(img, sector, entries):
    off = sector * 512
    img[off + 446:off + 510] = b"".join(entries + [bytes(16)] * (4 - len(entries)))
    img[off + 510:off + 512] = b"\x55\xaa"

def sane_extent():              # somewhere on the disk, often overlapping another
    start = rng.randrange(1, nr - 1)
    return start, rng.randrange(1, min(nr - start, 40000) + 1)

def dos(img):
    ents = []
    for _ in range(4):
        typ = rng.choice([0x83, 0x07, 0x0C, 0x82, 0x00] + list(EXT))
        start, size = sane_extent() if rng.random() < 0.6 else (lba(), lba())
        ents.append(mbr_entry(typ, start, size, rng.choice([0, 0x80])))
    put_table(img, 0, ents)

def extended(img):
    ext = rng.randrange(2, 40)
    size = rng.choice([20000, nr - ext, lba()])
    put_table(img, 0, [mbr_entry(0x83, 1, rng.choice([ext - 1, ext - 1, ext + 5])),
                       mbr_entry(rng.choice(EXT), ext, size)] +
                      ([mbr_entry(0x83, *sane_extent())] if rng.random() < 0.3 else []))
    ebrs = [ext] + sorted(rng.sample(range(ext + 1, SPAN), 5))
    for i, e in enumerate(ebrs):
        nxt = ebrs[i + 1] if i + 1 < 6 else 0
        link = rng.choice([nxt, nxt, nxt, ebrs[0], e, lba() + ext]) - ext
        logical = mbr_entry(0x83, rng.choice([1, 1, rng.randrange(0, 64), lba()]),
                            rng.choice([rng.randrange(1, 8), rng.randrange(1, 8), rng.randrange(1, 3000), lba()]))
        put_table(img, e, [logical] + ([mbr_entry(rng.choice(EXT), link, rng.randrange(1, 5000))] if nxt else []))

def gpt(img, hybrid=False):
    ents = [mbr_entry(0xEE, 1, nr - 1)]
    if hybrid:
        ents += [mbr_entry(0x83, *sane_extent()), mbr_entry(0x05, lba(), lba())]
    put_table(img, 0, ents)
    size, num, array_lba, first, last, alt = 128, 128, 2, 34, nr - 34, nr - 1
    field = rng.randrange(7)    # one absurd header field, or none
    if field == 0: size = rng.choice([64, 0, 129, 1024, 1 << 31])
    if field == 1: num = rng.choice([0, 0xFFFFFFFF, 1 << 16, 9000])
    if field == 2: array_lba = rng.choice([lba(), SPAN - 1, 0])
    if field == 3: first, last = rng.choice([(lba(), lba()), (0, nr + 5), (34, (1 << 64) - 1)])
    if field == 4: alt = lba()
    if array_lba < SPAN and 0 < size <= 4096 and num * size <= (SPAN - array_lba) * 512:
        array = bytearray()
        for i in range(num):
            e = bytearray(size)
            if i < 24 and rng.random() < 0.7:
                s, n = sane_extent() if rng.random() < 0.6 else (lba(), lba())
                e[0:32] = rng.randbytes(32)
                struct.pack_into("<QQ", e, 32, s % 2**64, rng.choice([s + n - 1, s + n - 1, s - 1, lba()]) % 2**64)
            array += e
        img[array_lba * 512:array_lba * 512 + len(array)] = array
        crc = zlib.crc32(bytes(array))
    else:
        crc = rng.randrange(1 << 32)
    hdr = bytearray(struct.pack("<8sIIIIQQQQ16sQIII", b"EFI PART", 0x10000, 92, 0, 0, 1, alt % 2**64,
                                first % 2**64, last % 2**64, rng.randbytes(16), array_lba % 2**64,
                                num, size & 0xFFFFFFFF, crc))
    struct.pack_into("<I", hdr, 16, zlib.crc32(bytes(hdr)))
    img[512:512 + len(hdr)] = hdr

kinds = [dos, extended, gpt, lambda img: gpt(img, hybrid=True)]
for t in range(count):
    img = bytearray(SPAN * 512)
    kinds[t % len(kinds)](img)
    open(f"{out}/t{t}", "wb").write(img)
PY
[ -f "$dir/tables/t$((ntables - 1))" ] && ok "partitions-garbage/tables" ||
	{ notok "partitions-garbage/tables" "generator failed"; exit 0; }
mke2fs -q -F -t ext2 -b 1024 -d "$dir/tables" "$dir/tables.img" 8M >"$dir/make.log" 2>&1
truncate -s $((disk_sectors * 512)) "$dir/scratch.img"

# Half the tables per boot: shell_exec takes a run= list of 1023 bytes at most.
for half in 0 1; do
	cmds=""
	for t in $(seq $((half * ntables / 2)) $(((half + 1) * ntables / 2 - 1))); do
		cmds+="echo ==t$t;dd if=/sda/t$t of=sdb;rereadpt sdb;part sdb;"
	done
	boot partitions-garbage-$half --machine q35 --timeout 60 --disk "$dir/tables.img,bus=ahci" \
		--disk "$dir/scratch.img,bus=ahci" --cmdline "writable=sdb run=\"${cmds}echo ==end\""
	expect_no_out "partitions-garbage/$half/no_panic" 'panic|Oops|exception'
	expect_out "partitions-garbage/$half/all_tables_scanned" '^==end$'
	cat "$out" >>"$dir/all.out"
done
out=$dir/all.out
expect_out "partitions-garbage/warnings_name_the_disk" '^\[ *[0-9.]+\] sdb: '
python3 - "$out" "$disk_sectors" "$ntables" <<'PY' >"$dir/verdict" && ok "partitions-garbage/kept_partitions_sane" ||
import re, sys
text, nr, count = open(sys.argv[1]).read(), int(sys.argv[2]), int(sys.argv[3])
bad, seen = [], 0
for t in range(count):
    m = re.search(r"==t%d$(.*?)^==" % t, text, re.M | re.S)	# the first follows the run: line
    if not m or "sdb: scheme" not in m.group(1):
        bad.append(f"t{t}: no part output"); continue
    seen += 1
    parts = [(int(a), int(b), int(c), " extended" if ") extended" in rest else " logical" if ") logical" in rest else "")
             for a, b, c, rest in re.findall(r"^ *(\d+) +(\d+) +(\d+) +\d+ (.*)$", m.group(1), re.M)]
    for n, s, e, f in parts:
        if s < 1 or e >= nr or e < s:
            bad.append(f"t{t}: partition {n} {s}-{e} outside the disk")
    for i, (n, s, e, f) in enumerate(parts):
        for n2, s2, e2, f2 in parts[i + 1:]:
            container = (f == " extended") != (f2 == " extended") and " logical" in (f, f2)
            if s <= e2 and s2 <= e and not container:
                bad.append(f"t{t}: partitions {n} and {n2} overlap")
if bad:
    sys.exit("; ".join(bad[:4]))
print(f"{seen} tables")
PY
	notok "partitions-garbage/kept_partitions_sane" "$(cat "$dir/verdict")"
