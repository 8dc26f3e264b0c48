#!/usr/bin/env bash
# Build the partition-table test images, deterministically, with host tools.
#
#   tests/images/partitions.sh [OUTDIR]      (default build/images/part)
#
# For each image NAME it writes NAME.raw (sparse), NAME.dump (what sfdisk,
# or fdisk -b 4096 for 4K-sector disks, says the table should be: for a
# damaged image, the dump of the image before the damage) and NAME.meta:
#   bs=512|4096      logical block size to parse with
#   warn=yes|no      whether the parser must report a problem
#   expect=1,2,...   only these partitions of the dump survive (damaged images)
#   scheme=none      the parser must find no table at all
#   limit=N          parse with room for N partitions (minors - 1)
# GUIDs, disk ids and names are fixed, so two runs give the same bytes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-build/images/part}
patch="python3 $here/patch.py"
rm -rf "$out" && mkdir -p "$out"
cd "$out"

meta() {	# NAME key=value...
	local n=$1
	shift
	printf '%s\n' "$@" >"$n.meta"
}

derive() {	# NEW FROM: a sparse copy of FROM whose oracle is FROM's dump
	cp --sparse=always "$2.raw" "$1.raw"
	cp "$2.dump" "$1.dump"
}

guid() {	# N: a fixed unique GUID for partition N
	printf 'AAAAAAAA-0000-4000-8000-%012d' "$1"
}

# -- MBR: two primaries, an extended partition, three logicals
truncate -s 400M mbr.raw
sfdisk -q mbr.raw <<'SF'
label: dos
label-id: 0x12345678
unit: sectors

start=2048, size=64MiB, type=83, bootable
start=133120, size=32MiB, type=82
type=5
size=40MiB, type=83
size=30MiB, type=7
type=83
SF
sfdisk --dump mbr.raw >mbr.dump
meta mbr bs=512 warn=no

# -- GPT with many named partitions, several types and attributes
truncate -s 256M gpt-many.raw
args=(-o -U 11111111-2222-3333-4444-555555555555)
types=(ef02 ef00 8300 8200 0700 8e00 fd00 8300)
for i in $(seq 1 20); do
	args+=(-n "$i:0:+4M" -t "$i:${types[$(( (i - 1) % 8 ))]}" -u "$i:$(guid "$i")")
	args+=(-c "$i:part-$i name")
done
args+=(-c "3:données" -c "7:日本語" -A 2:set:0 -A 3:set:2 -A 4:set:60)
sgdisk "${args[@]}" gpt-many.raw >/dev/null
sfdisk --dump gpt-many.raw >gpt-many.dump
meta gpt-many bs=512 warn=no
# the same disk with room for 15 partitions only (16 minors)
derive gpt-limit16 gpt-many
meta gpt-limit16 bs=512 warn=yes limit=15 expect=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15

# -- hybrid MBR: GPT plus 0xEE and two real-looking MBR entries (sgdisk -h)
truncate -s 64M hybrid.raw
sgdisk -o -U 22222222-2222-3333-4444-555555555555 \
	-n 1:2048:+8M -t 1:0700 -u "1:$(guid 1)" -c 1:fat \
	-n 2:0:+8M -t 2:8300 -u "2:$(guid 2)" -c 2:linux \
	-n 3:0:0 -t 3:8300 -u "3:$(guid 3)" -c 3:rest hybrid.raw >/dev/null
sfdisk --dump hybrid.raw >hybrid.dump
sgdisk -h 1:2 hybrid.raw >/dev/null
meta hybrid bs=512 warn=no

# -- GPT whose primary header is damaged: the backup must be used
derive gpt-badhdr gpt-many
$patch flip gpt-badhdr.raw $((512 + 60))	# a byte of the disk GUID
meta gpt-badhdr bs=512 warn=yes

# -- GPT whose primary entry array fails its CRC
derive gpt-badarray gpt-many
$patch flip gpt-badarray.raw $((1024 + 56))	# first character of entry 1's name
meta gpt-badarray bs=512 warn=yes

# -- GPT image copied to a larger disk: backup header not at the last LBA
truncate -s 64M gpt-moved.raw
sfdisk -q gpt-moved.raw <<SF
label: gpt
label-id: 33333333-2222-3333-4444-555555555555
first-lba: 2048

start=2048, size=16MiB, type=L, name="one", uuid=$(guid 1)
type=L, name="two", uuid=$(guid 2)
SF
sfdisk --dump gpt-moved.raw >gpt-moved.dump
truncate -s 96M gpt-moved.raw
meta gpt-moved bs=512 warn=yes

# -- 4096-byte logical sectors (sfdisk 2.38 has no sector-size option; fdisk does)
truncate -s 128M gpt4k.raw
cat >gpt4k.in <<SF
label: gpt
label-id: 44444444-2222-3333-4444-555555555555
unit: sectors
first-lba: 256

start=256, size=4096, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B, name="esp", uuid=$(guid 1)
start=4352, size=8192, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4, name="root", uuid=$(guid 2)
type=0657FD6D-A4AB-43C4-84E5-0933C84B4F4F, name="swap", uuid=$(guid 3)
SF
printf 'I\ngpt4k.in\nw\n' | fdisk -b 4096 gpt4k.raw >/dev/null
printf 'O\ngpt4k.dump\nq\n' | fdisk -b 4096 gpt4k.raw >/dev/null
rm -f gpt4k.in
meta gpt4k bs=4096 warn=no

# -- 3 TiB sparse disk, a partition starting beyond 2 TiB (LBA 2^32 and up)
truncate -s 3T gpt3t.raw
sfdisk -q gpt3t.raw <<SF
label: gpt
label-id: 55555555-2222-3333-4444-555555555555
first-lba: 2048

start=2048, size=100MiB, type=L, name="boot", uuid=$(guid 1)
start=4400000000, size=1GiB, type=L, name="far", uuid=$(guid 2)
type=L, name="rest", uuid=$(guid 3)
SF
sfdisk --dump gpt3t.raw >gpt3t.dump
meta gpt3t bs=512 warn=no

# -- malformed dos tables
derive mbr-ebrloop mbr
$patch ebr-loop mbr-ebrloop.raw
meta mbr-ebrloop bs=512 warn=yes

derive mbr-pastend mbr
truncate -s 150M mbr-pastend.raw	# cuts into the extended partition and logical 6
meta mbr-pastend bs=512 warn=yes expect=1,2,3,5,6

derive mbr-overlap mbr
$patch mbr-entry mbr-overlap.raw 2 100000 65536 0x83	# inside partition 1
meta mbr-overlap bs=512 warn=yes expect=1,3,5,6,7

# -- malformed GPT headers: the primary is refused and the backup used ...
derive gpt-hugenum gpt-many
$patch gpt-field gpt-hugenum.raw 1 num_entries 0x7fffffff
meta gpt-hugenum bs=512 warn=yes

derive gpt-hdrsize0 gpt-many
$patch gpt-field gpt-hdrsize0.raw 1 header_size 0 --keep-crc
meta gpt-hdrsize0 bs=512 warn=yes

# ... or both are bad, and there is no table
derive gpt-hdrsize4g gpt-many
last=$(( $(stat -c %s gpt-hdrsize4g.raw) / 512 - 1 ))
$patch gpt-field gpt-hdrsize4g.raw 1 header_size 0xffffffff --keep-crc
$patch gpt-field gpt-hdrsize4g.raw "$last" header_size 0xffffffff --keep-crc
meta gpt-hdrsize4g bs=512 warn=yes scheme=none expect=

derive gpt-truncated gpt-many
truncate -s 128M gpt-truncated.raw	# partitions and backup past the end
meta gpt-truncated bs=512 warn=yes scheme=none expect=
