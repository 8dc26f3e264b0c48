#!/usr/bin/env bash
# The gendisk registry and its shell commands, built on the host with
# sanitizers as build/host/blktool, over every undamaged image of
# tests/images/partitions.sh: `lsblk` and `part` must show each partition
# sfdisk (or fdisk -b 4096) lists, with its start, end and size; the
# extended container's device covers one block.  On the 3 TiB image, a
# write through bdev_remap to the last sector of the partition beyond
# 2 TiB is found by dd at that disk sector, and one sector more is refused.
# Prints TAP lines.
set -u
cd "$(dirname "$0")/../.."
img=build/host/registry-images
tool=build/host/blktool
mkdir -p build/host
if ! bash tests/images/partitions.sh "$img" >build/host/registry-images.log 2>&1; then
	echo "not ok - registry/images # image build failed"
	exit 1
fi
if ! ${HOSTCC:-cc} -std=gnu11 -g -O1 -I. -DHOST_TEST -Wall -Wextra -Werror \
	-Wno-unused-parameter -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all -o "$tool" \
	tests/host/blktool.c block/genhd.c block/bdev.c block/partitions/check.c \
	block/partitions/msdos.c block/partitions/efi.c block/blkdev_io.c lib/crc32.c \
	lib/errstr.c tests/unit/fakes/param_fake.c tests/unit/fakes/console_fake.c \
	tests/unit/fakes/rdisk_fake.c $(make -s --no-print-directory print-UNIT_BLOCK_CORE) \
	tests/unit/host/kernel_shim.c 2>build/host/blktool.log; then
	echo "not ok - registry/build # $(head -1 build/host/blktool.log)"
	exit 1
fi

compare() {	# NAME BS OUTPUT
	python3 - "$img/$1.dump" "$2" "$3" <<'PY'
import re, sys
dump, bs, out = sys.argv[1], int(sys.argv[2]), open(sys.argv[3]).read()
scale = bs // 512
want = {}
for line in open(dump):
    m = re.match(r"^\S*?(\d+) : start=\s*(\d+), size=\s*(\d+), type=(\w+)", line)
    if m:
        want[int(m.group(1))] = (int(m.group(2)) * scale, int(m.group(3)) * scale,
                                 m.group(4).lower() in ("5", "f", "85"))
lsblk = {int(m.group(1)): int(m.group(2))
         for m in re.finditer(r"^sda(\d+) +\S+ +\S+ +(\d+) ", out, re.M)}
part = {int(m.group(1)): (int(m.group(2)), int(m.group(3)), int(m.group(4)))
        for m in re.finditer(r"^ *(\d+) +(\d+) +(\d+) +(\d+) ", out, re.M)}
errs = []
if sorted(lsblk) != sorted(want) or sorted(part) != sorted(want):
    errs.append("partitions lsblk %s part %s, sfdisk %s" % (sorted(lsblk), sorted(part), sorted(want)))
for n, (start, size, ext) in want.items():
    if n in part and part[n] != (start, start + size - 1, size):
        errs.append("part %d: %s, sfdisk %s" % (n, part[n], (start, start + size - 1, size)))
    if n in lsblk and lsblk[n] != (scale if ext else size):
        errs.append("lsblk %d: %d sectors, sfdisk %d" % (n, lsblk[n], size))
print(errs[0] if errs else "")
PY
}

for meta in "$img"/*.meta; do
	n=$(basename "$meta" .meta)
	grep -q '^warn=no' "$meta" || continue
	bs=$(sed -n 's/^bs=//p' "$meta")
	if ! "$tool" -b "$bs" "$img/$n.raw" >"$img/$n.blk" 2>&1; then
		echo "not ok - registry/$n # blktool failed: $(tail -1 "$img/$n.blk")"
		continue
	fi
	why=$(compare "$n" "$bs" "$img/$n.blk")
	if [ -n "$why" ]; then
		echo "not ok - registry/$n # $why"
	else
		echo "ok - registry/$n"
	fi
done

# beyond 2 TiB: write the last sector of partition 2 through the remap
if ! "$tool" -w sda2 "$img/gpt3t.raw" >"$img/gpt3t.write" 2>&1; then
	echo "not ok - registry/write_beyond_2t # $(tail -1 "$img/gpt3t.write")"
	exit 0
fi
s=$(sed -n 's/^wrote //p' "$img/gpt3t.write")
read -r start size < <(sed -n 's/^[^ ]*[^0-9]2 : start= *\([0-9]*\), size= *\([0-9]*\),.*/\1 \2/p' \
	"$img/gpt3t.dump")
want=$((start + size - 1))
got=$(dd if="$img/gpt3t.raw" bs=512 skip="$s" count=1 status=none | tr -d '\0')
if [ "$s" = "$want" ] && [ "$s" -gt 4294967295 ] && [ "$got" = "blktool $s" ]; then
	echo "ok - registry/write_beyond_2t"
else
	echo "not ok - registry/write_beyond_2t # wrote '$s', expected '$want', dd read '$got'"
fi
