#!/usr/bin/env bash
# The partition parsers (block/partitions/), built on the host with
# sanitizers as build/host/parttool, against sfdisk's and fdisk's view of
# every image tests/images/partitions.sh makes: same partitions, starts,
# sizes, types, names, PARTUUIDs and attributes; on damaged images a
# warning, no crash and a sane result.  Prints TAP lines.
set -u
cd "$(dirname "$0")/../.."
img=build/images/part
tool=build/host/parttool
mkdir -p build/host
if ! bash tests/images/partitions.sh "$img" >build/host/images.log 2>&1; then
	echo "not ok - partitions/images # image build failed: $(tail -1 build/host/images.log)"
	exit 1
fi
if ! ${HOSTCC:-cc} -std=gnu11 -g -O1 -I. -DHOST_TEST -Wall -Wextra -Werror \
	-Wno-unused-parameter -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all \
	-o "$tool" tests/host/parttool.c block/partitions/check.c \
	block/partitions/msdos.c block/partitions/efi.c lib/crc32.c \
	tests/unit/host/kernel_shim.c 2>build/host/parttool.log; then
	echo "not ok - partitions/build # $(head -1 build/host/parttool.log)"
	exit 1
fi
for meta in "$img"/*.meta; do
	n=$(basename "$meta" .meta)
	bs=$(sed -n 's/^bs=//p' "$meta")
	limit=$(sed -n 's/^limit=//p' "$meta")
	if ! "$tool" -b "${bs:-512}" -l "${limit:-255}" "$img/$n.raw" \
		>"$img/$n.out" 2>"$img/$n.err"; then
		echo "not ok - partitions/$n # parttool failed: $(tail -1 "$img/$n.err")"
		continue
	fi
	python3 tests/host/partcmp.py "$n" "$img" "$img/$n.out"
done
