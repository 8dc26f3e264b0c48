#!/usr/bin/env bash
# Unusual but legal storage configurations, black box: the kernel boots on
# each and must name every disk with its true size, list exactly the
# partitions the host's sfdisk sees, say clearly what it leaves alone, and
# write nothing it should not.  Oracles are the host's tools and the image
# bytes.  One boot per group:
#   sizes     1 sector, 2047 sectors, 1001 (odd) sectors, exactly 2 TiB,
#             2 TiB + 512 bytes, 16 TiB - 4 KiB (LBA48 and a GPT past 2 TiB)
#             on AHCI, and some of them on IDE: capacity, last sector
#   tables    GPT with only its backup, GPT slots 1/200/256 (past the
#             16 minors of sd: major 259, like Linux), GPT with 256-byte
#             entries, a hybrid MBR, 56 logical partitions, an MBR entry
#             ending past 2 TiB, a disk shorter than its MBR and its GPT
#   devices   512e (physical_block_size=4096) on AHCI and IDE with a
#             misaligned partition, rotation_rate=1, a model of spaces, a
#             40-character model with odd bytes, an empty (0-byte) image,
#             CD-ROMs with and without media beside disks on IDE and AHCI
#   ext2      1, 2 and 4 KiB blocks with unusual mke2fs options, ext2 in
#             logical partition 60, sparse_super2, meta_bg (what -g 256
#             gives), 8 KiB blocks and a filesystem larger than its disk
#             (both refused by name): mounted read-only (images unchanged),
#             then written and checked by e2fsck -fn and debugfs
#   policy    writable= one partition: the rest refuse writes, and only the
#             sectors written in the allowed partition change; a disk that
#             fails every write leaves its image as it was
. "$(dirname "$0")/lib.bash"
export PATH=$PATH:/usr/sbin:/sbin SOURCE_DATE_EPOCH=1700000000 E2FSPROGS_FAKE_TIME=1700000000

img=$logdir/odd-disks
rm -rf "$img" && mkdir -p "$img"
TIB=$((1 << 40))

# mark IMAGE: write "LAST <image name>" into the last sector of IMAGE.
mark() {
	printf 'LAST %s' "$(basename "$1")" |
		dd of="$1" bs=1 seek=$(( $(stat -c %s "$1") - 512 )) conv=notrunc status=none
}

# Python for dos tables sfdisk will not make (56 logicals, an entry that
# ends past 2 TiB): ent() is one MBR/EBR entry, put() writes entries, the
# 0x55AA signature and optionally a disk signature into a sector.
mbr_py='
import struct, sys
def ent(typ, start, size, boot=0):
    return struct.pack("<B3sB3sII", boot, b"\0\0\0", typ, b"\0\0\0", start, size)
def put(f, sect, entries, sig=None):
    f.seek(sect * 512 + 446)
    f.write(b"".join(entries))
    f.seek(sect * 512 + 510)
    f.write(b"\x55\xaa")
    if sig is not None:
        f.seek(sect * 512 + 440)
        f.write(struct.pack("<I", sig))
'

make_images() {
	set -e
	# -- sizes --
	truncate -s 512 "$img/s1.raw"
	truncate -s $((1048576 - 512)) "$img/s2047.raw"
	truncate -s $((1001 * 512)) "$img/s1001.raw"
	truncate -s $((2 * TIB)) "$img/t2.raw"
	sgdisk -o -U 22222222-0000-4000-8000-000000000002 -n 1:2048:+1M -n 2:0:0 "$img/t2.raw"
	truncate -s $((2 * TIB + 512)) "$img/t2p.raw"
	printf 'label: dos\nlabel-id: 0x2222bbbb\nunit: sectors\n\nstart=2048, size=4294965248, type=83\n' |
		sfdisk -q "$img/t2p.raw"
	truncate -s $((16 * TIB - 4096)) "$img/t16.raw"	# ext4's largest file
	sgdisk -o -U 16161616-0000-4000-8000-000000000016 -n 1:2048:+100M -n 2:0:0 "$img/t16.raw"
	for f in s1 s2047 s1001 t2p; do mark "$img/$f.raw"; done

	# -- tables --
	truncate -s 32M "$img/gbak.raw"		# the primary GPT wiped: only the backup
	sgdisk -o -n 1:2048:+4M -c 1:one -n 2:0:+8M -c 2:two "$img/gbak.raw"
	sfdisk --json "$img/gbak.raw" >"$img/gbak.json"
	dd if=/dev/zero of="$img/gbak.raw" bs=512 seek=1 count=33 conv=notrunc status=none
	truncate -s 32M "$img/g256.raw"		# 256 entries; slot 256 is past Linux's 255 too
	sgdisk -o -a 8 -S 256 -n 1:0:+4M -n 200:0:+4M -c 200:slot200 -n 256:0:+1M "$img/g256.raw"
	python3 - "$img/gent.raw" <<-'PY'	# 64 entries of 256 bytes, slots 1, 2 and 6
	import struct, sys, uuid, zlib
	S, n, esz, ne = 512, 65536, 256, 64
	img = bytearray(n * S)
	img[446:462] = bytes([0, 0, 2, 0, 0xEE, 0xFF, 0xFF, 0xFF]) + struct.pack("<II", 1, n - 1)
	img[510:512] = b"\x55\xaa"
	blocks = ne * esz // S
	ents = bytearray(ne * esz)
	lin = uuid.UUID("0FC63DAF-8483-4772-8E79-3D69D8477DE4").bytes_le
	for slot, first, last, name in ((0, 2048, 4095, "wide-1"), (1, 4096, 8191, "two"), (5, 10000, 10999, "six")):
	    ents[slot * esz:slot * esz + 128] = (lin + uuid.UUID(int=slot + 1).bytes_le +
	        struct.pack("<QQQ", first, last, 0) + name.encode("utf-16le").ljust(72, b"\0"))
	def header(my, alt, array):
	    h = struct.pack("<8sIIIIQQQQ16sQIII", b"EFI PART", 0x10000, 92, 0, 0, my, alt, 2 + blocks,
	                    n - 2 - blocks, uuid.UUID(int=256).bytes_le, array, ne, esz, zlib.crc32(ents))
	    return h[:16] + struct.pack("<I", zlib.crc32(h)) + h[20:]
	img[S:S + 92] = header(1, n - 1, 2)
	img[2 * S:2 * S + len(ents)] = ents
	img[(n - 1) * S:(n - 1) * S + 92] = header(n - 1, 1, n - 1 - blocks)
	img[(n - 1 - blocks) * S:(n - 1) * S] = ents
	open(sys.argv[1], "wb").write(img)
	PY
	truncate -s 32M "$img/hyb.raw"
	sgdisk -o -n 1:2048:+4M -n 2:0:+4M -n 3:0:+4M "$img/hyb.raw"
	sgdisk -h 1:2:3 "$img/hyb.raw"
	truncate -s 128M "$img/ebr.raw"		# p1, extended p2, logicals 5..60
	python3 -c "$mbr_py"'
f = open(sys.argv[1], "r+b")
ext, n, step = 4096, 56, 2048
put(f, 0, [ent(0x83, 2048, 2048, 0x80), ent(0x05, ext, n * step)], sig=0x0ebc4a17)
for i in range(n):
    put(f, ext + i * step, [ent(0x83, 63, 1900 + i)] + ([ent(0x05, (i + 1) * step, step)] if i + 1 < n else []))
' "$img/ebr.raw"
	truncate -s 3T "$img/m3t.raw"		# an MBR entry from 1.9 TiB to 2.3 TiB
	python3 -c "$mbr_py"'
put(open(sys.argv[1], "r+b"), 0, [ent(0x83, 2048, 2048), ent(0x83, 4000000000, 1000000000)], sig=0x3e3e3e3e)
' "$img/m3t.raw"
	printf 'END OF sdf2' | dd of="$img/m3t.raw" bs=512 seek=4999999999 conv=notrunc status=none
	truncate -s 64M "$img/short.raw"	# tables for 64 MiB on a 48 MiB disk
	printf 'label: dos\nunit: sectors\n\nstart=2048, size=40960, type=83\nstart=43008, size=40960, type=83\nstart=83968, size=40960, type=83\n' |
		sfdisk -q "$img/short.raw"
	truncate -s 48M "$img/short.raw"
	truncate -s 64M "$img/shortg.raw"
	sgdisk -o -n 1:2048:+20M -n 2:0:0 "$img/shortg.raw"
	truncate -s 48M "$img/shortg.raw"
	cp --sparse=always "$img/ebr.raw" "$img/ebr-ide.raw"
	for f in t2 t2p t16 g256 gent hyb ebr m3t short; do sfdisk --json "$img/$f.raw" >"$img/$f.json"; done

	# -- devices --
	truncate -s 64M "$img/p512e.raw"
	printf 'label: dos\nunit: sectors\n\nstart=63, size=10000, type=83\nstart=20480, size=20480, type=83\n' |
		sfdisk -q "$img/p512e.raw"
	for f in v1 v2 v3 v4; do truncate -s 8M "$img/$f.raw"; done
	truncate -s 0 "$img/empty.raw"
	head -c 204800 /dev/urandom >"$img/cd.iso"

	# -- ext2 --
	mkdir -p "$img/src/dir"
	echo hello >"$img/src/hello.txt"
	python3 tools/fillgen.py 100000 3 >"$img/src/r.bin"
	mkfs() {	# mkfs IMAGE SIZE [mke2fs options]: ext2 holding src/
		local f=$1 size=$2
		shift 2
		truncate -s "$size" "$f"
		mke2fs -q -F -t ext2 -d "$img/src" "$@" "$f" 2>&1 | grep -v 2038 || true
	}
	mkfs "$img/e1.raw" 16M -b 1024 -O ^sparse_super,^resize_inode -I 256 -N 4000 -g 1024
	mkfs "$img/e2.raw" 24M -b 2048 -I 256 -g 2048 -N 6000
	mkfs "$img/e4.raw" 48M -b 4096 -O ^sparse_super,^resize_inode -g 8192 -I 128
	mkfs "$img/e4i.raw" 40M -b 4096 -N 30000 -I 1024
	mkfs "$img/e1r.raw" 20M -b 1024 -O resize_inode -E resize=400000 -g 512
	mkfs "$img/e8k.raw" 32M -b 8192
	mkfs "$img/es2.raw" 16M -O sparse_super2 -E num_backup_sb=1
	mkfs "$img/emeta.raw" 16M -b 1024 -g 256	# groups this small make mke2fs pick meta_bg
	dumpe2fs -h "$img/emeta.raw" | grep -q '^Filesystem features:.* meta_bg'
	mkfs "$img/eshort.raw" 16M -b 1024
	truncate -s 12M "$img/eshort.raw"	# a filesystem larger than its disk
	cp "$img/ebr.raw" "$img/e60.raw"	# ext2 in logical partition 60
	mke2fs -q -F -t ext2 -b 1024 -d "$img/src" -E offset=$(( (4096 + 55 * 2048 + 63) * 512 )) \
		"$img/e60.raw" 977k 2>&1 | grep -v 2038 || true
	for f in e1 e2 e4 e4i e1r e8k e60 es2 eshort emeta; do cp "$img/$f.raw" "$img/$f.orig"; done

	# -- policy --
	python3 tools/fillgen.py $((8 << 20)) 9 >"$img/w.raw"
	printf 'label: dos\nunit: sectors\n\nstart=2048, size=4096, type=83\nstart=6144, size=4096, type=83\n' |
		sfdisk -q "$img/w.raw"
	cp "$img/w.raw" "$img/w.orig"
	python3 tools/fillgen.py $((4 << 20)) 10 >"$img/wfail.raw"
	cp "$img/wfail.raw" "$img/wfail.orig"
	printf '[inject-error]\nevent = "write_aio"\niotype = "write"\nerrno = "5"\nonce = "off"\n' >"$img/wfail.cfg"
}
# In a subshell of its own, not under || or if: otherwise set -e is ignored.
(make_images) >"$img/make.log" 2>&1
# shellcheck disable=SC2181
[ $? -eq 0 ] || { notok "odd/images" "image build failed (see $img/make.log)"; exit 0; }

# expect_disk TAG DISK IMAGE: lsblk in the last boot shows DISK with the
# image's size in sectors.
expect_disk() {
	expect_out "$1" "^$2 +[0-9]+:[0-9]+ +[^ ]+ +$(( $(stat -c %s "$3") / 512 )) +[01] disk"
}

# expect_last TAG DISK IMAGE: "hexdump DISK <last sector> 16" printed the
# first 16 bytes of the image's last sector, as the host reads them.
expect_last() {
	local off=$(( $(stat -c %s "$3") - 512 )) hex
	hex=$(od -An -tx1 -N16 -j "$off" "$3" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
	hex=$(echo "$hex" | sed -E 's/^(([0-9a-f]{2} ){7}[0-9a-f]{2}) /\1  /')
	expect_out "$1" "^$(printf '%08x' "$off")  $hex  "
}

# part_matches TAG DISK IMAGE [JSON]: "part DISK" in the last boot lists
# exactly the partitions of sfdisk --json (JSON, else IMAGE.json) numbered
# up to 255 (Linux's limit), with their starts and sizes.
part_matches() {
	local why
	why=$(python3 - "$out" "$2" "${4:-${3%.raw}.json}" <<-'PY'
	import json, re, sys
	out, disk, js = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
	m = re.search(r"^%s: scheme (\w+).*\n(( *NR .*\n)?( *\d+ +\d+ +\d+ +\d+ \S+ \(.*\n)*)" % disk,
	              out, re.M)
	if not m:
	    sys.exit(print("no 'part %s' output" % disk))
	got = {}
	for l in m.group(2).splitlines()[1:]:
	    f = l.split()
	    got[int(f[0])] = (int(f[1]), int(f[3]))
	t = json.load(open(js))["partitiontable"]
	want = {}
	for p in t["partitions"]:
	    n = int(re.search(r"(\d+)$", p["node"]).group(1))
	    if n <= 255:
	        want[n] = (p["start"], p["size"])
	if m.group(1) != t["label"]:
	    print("scheme %s, sfdisk %s" % (m.group(1), t["label"]))
	elif got != want:
	    print("kernel %s, sfdisk %s" % (sorted(set(got.items()) - set(want.items()))[:3],
	                                    sorted(set(want.items()) - set(got.items()))[:3]))
	PY
	)
	if [ -z "$why" ]; then ok "$1"; else notok "$1" "$why"; fi
}

# same_bytes TAG IMAGE [ORIG]: the image still holds what it held before the boot.
same_bytes() {
	if cmp -s "$2" "${3:-${2%.raw}.orig}"; then ok "$1"; else notok "$1" "$2 changed"; fi
}

# -- sizes: AHCI (six ports), then IDE --
last() { echo "hexdump $1 $(( $(stat -c %s "$2") - 512 )) 16"; }
boot odd-sizes-ahci --machine q35 --timeout 60 \
	--disk "$img/s1.raw" --disk "$img/s2047.raw" --disk "$img/s1001.raw" \
	--disk "$img/t2.raw" --disk "$img/t2p.raw" --disk "$img/t16.raw" \
	--cmdline "run=\"lsblk; part sdd; part sde; part sdf; $(last sda "$img/s1.raw"); $(last sdb "$img/s2047.raw"); $(last sdc "$img/s1001.raw"); $(last sdd "$img/t2.raw"); $(last sde "$img/t2p.raw"); $(last sdf "$img/t16.raw")\""
expect_rc "odd/sizes/ahci/boot" 0
set -- sda s1 sdb s2047 sdc s1001 sdd t2 sde t2p sdf t16
while [ $# -gt 0 ]; do
	expect_disk "odd/sizes/ahci/$2-capacity" "$1" "$img/$2.raw"
	expect_last "odd/sizes/ahci/$2-last-sector" "$1" "$img/$2.raw"
	shift 2
done
set -- sdd t2 sde t2p sdf t16
while [ $# -gt 0 ]; do
	part_matches "odd/sizes/ahci/$2-partitions" "$1" "$img/$2.raw"
	shift 2
done
expect_no_out "odd/sizes/ahci/no-warnings" '\] (sd[a-f]|ahci0\.[0-5]): .*(invalid|dropped|skipped|outside)'

boot odd-sizes-ide --machine pc --timeout 60 \
	--disk "$img/s1.raw" --disk "$img/s1001.raw" --disk "$img/t2p.raw" --disk "$img/t16.raw" \
	--cmdline "run=\"lsblk; part hdc; part hdd; $(last hda "$img/s1.raw"); $(last hdb "$img/s1001.raw"); $(last hdc "$img/t2p.raw"); $(last hdd "$img/t16.raw")\""
expect_rc "odd/sizes/ide/boot" 0
set -- hda s1 hdb s1001 hdc t2p hdd t16
while [ $# -gt 0 ]; do
	expect_disk "odd/sizes/ide/$2-capacity" "$1" "$img/$2.raw"
	expect_last "odd/sizes/ide/$2-last-sector" "$1" "$img/$2.raw"
	shift 2
done
expect_out "odd/sizes/ide/t16-lba48" '\] hdd: QEMU HARDDISK, 16777215 MiB \(34359738360 sectors\), LBA48'
part_matches "odd/sizes/ide/t2p-partitions" hdc "$img/t2p.raw"
part_matches "odd/sizes/ide/t16-partitions" hdd "$img/t16.raw"

# -- tables: six on AHCI (pc's ich9-ahci), three on IDE --
boot odd-tables --machine pc --timeout 60 \
	--disk "$img/gbak.raw,bus=ahci" --disk "$img/g256.raw,bus=ahci" --disk "$img/gent.raw,bus=ahci" \
	--disk "$img/hyb.raw,bus=ahci" --disk "$img/ebr.raw,bus=ahci" --disk "$img/m3t.raw,bus=ahci" \
	--disk "$img/short.raw,bus=ide" --disk "$img/shortg.raw,bus=ide" --disk "$img/ebr-ide.raw,bus=ide" \
	--cmdline 'run="lsblk; part sda; part sdb; part sdc; part sdd; part sde; part sdf; part hda; part hdb; part hdc; lsblk sde60; hexdump sde60 0 16; hexdump sdf2 511999999488 16"'
expect_rc "odd/tables/boot" 0
expect_out "odd/tables/gpt-backup-only/warned" '\] sda: primary GPT header at LBA 1 invalid'
expect_out "odd/tables/gpt-backup-only/used" '\] sda: using the backup GPT'
part_matches "odd/tables/gpt-backup-only/partitions" sda "$img/gbak.raw" "$img/gbak.json"
expect_out "odd/tables/gpt-256/named" '^sdb200 +259:[0-9]+ +4M +8192 +1 part slot200$'
expect_out "odd/tables/gpt-256/slot-256-dropped" '\] sdb: 1 GPT partitions past the limit of 255 dropped'
part_matches "odd/tables/gpt-256/partitions" sdb "$img/g256.raw"
part_matches "odd/tables/gpt-entry-size-256/partitions" sdc "$img/gent.raw"
expect_out "odd/tables/gpt-entry-size-256/name" '^sdc6 +8:38 +500K +1000 +1 part six$'
part_matches "odd/tables/hybrid-mbr/gpt-wins" sdd "$img/hyb.raw"
part_matches "odd/tables/ebr-56/partitions" sde "$img/ebr.raw"
part_matches "odd/tables/ebr-56/partitions-ide" hdc "$img/ebr.raw"
expect_out "odd/tables/ebr-56/sde60" '^sde60 +259:[0-9]+ +977.5K +1955 +1 part'
expect_out "odd/tables/ebr-56/hdc60" '^hdc60 +22:60 +977.5K +1955 +1 part'
if [ "$(grep -A1 '^sde60 ' "$out" | head -2 | tail -1 | cut -d' ' -f1)" = sdf ]; then
	ok "odd/tables/ebr-56/listed-with-its-disk"
else
	notok "odd/tables/ebr-56/listed-with-its-disk" "lsblk does not go on from sde60 to sdf"
fi
expect_out "odd/tables/ebr-56/sde60-readable" '^00000000  00 00 00 00'
expect_no_out "odd/tables/ebr-56/no-drops" '\] (sde|hdc): .*(dropped|ignored|stopped)'
part_matches "odd/tables/mbr-past-2t/partitions" sdf "$img/m3t.raw"
expect_out "odd/tables/mbr-past-2t/last-sector" '^773593fe00  45 4e 44 20 4f 46 20 73  64 66 32 00 00 00 00 00  \|END OF sdf2'
expect_out "odd/tables/short-mbr/warned" '\] hda: partition 3 \(blocks 83968\+40960\) runs past the end of the disk, truncated to 14336 blocks$'
expect_out "odd/tables/short-mbr/others-kept" '^hda2 +3:2 +20M +40960 +1 part'
expect_out "odd/tables/short-mbr/hda3-cut-at-the-end" '^hda3 +3:3 +7M +14336 +1 part'
expect_out "odd/tables/short-gpt/warned" '\] hdb: no valid GPT despite a protective MBR; no partitions'
expect_out "odd/tables/short-gpt/none" '^hdb: scheme none'

# -- devices --
hd() {	# hd ID IMAGE DEVICE-PROPERTIES: a disk drive, as QEMU arguments
	echo "-drive if=none,id=$1,file=$2,format=raw,cache=unsafe -device ide-hd,drive=$1,$3"
}
cd_drive() {	# cd_drive ID [ISO] DEVICE-PROPERTIES: a CD-ROM drive, with media or empty
	if [ $# -eq 3 ]; then
		echo "-drive if=none,id=$1,media=cdrom,file=$2,format=raw,readonly=on -device ide-cd,drive=$1,$3"
	else
		echo "-drive if=none,id=$1,media=cdrom -device ide-cd,drive=$1,$2"
	fi
}
# expect_fixed TAG STRING: the last boot printed a line holding STRING.
expect_fixed() {
	if grep -qF -- "$2" "$out"; then ok "$1"; else notok "$1" "no line with '$2' in $out"; fi
}
model='%s%n"\Ü,x<>|0123456789ABCDEFGHIJKLMNOPQRSTU'	# 44 bytes: QEMU keeps 40
cp --sparse=always "$img/p512e.raw" "$img/p512e-ide.raw"
cp "$img/empty.raw" "$img/empty-ide.raw"
# shellcheck disable=SC2046
boot odd-devices-ahci --machine q35 --timeout 60 --cmdline 'run="lsblk"' -- \
	$(hd a0 "$img/p512e.raw" bus=ide.0,physical_block_size=4096) \
	$(hd a1 "$img/v1.raw" "bus=ide.1,rotation_rate=1,discard_granularity=512,model=    ") \
	$(cd_drive c2 "$img/cd.iso" bus=ide.2) \
	-drive "if=none,id=a3,file=$img/v2.raw,format=raw" \
	-device "ide-hd,drive=a3,bus=ide.3,model=${model//,/,,},serial=ABCDEFGHIJ0123456789,wwn=0xffffffffffffffff" \
	$(hd a4 "$img/empty.raw" bus=ide.4) \
	$(cd_drive c5 bus=ide.5)
expect_rc "odd/devices/ahci/boot" 0
expect_out "odd/devices/ahci/512e-named" '\] ahci0\.0: sda: QEMU HARDDISK, 131072 sectors, 4096-byte physical sectors, NCQ'
expect_out "odd/devices/ahci/512e-misaligned" '\] sda1: starts at sector 63, not on a 4096-byte physical sector'
expect_no_out "odd/devices/ahci/512e-aligned-quiet" '\] sda2: starts'
expect_out "odd/devices/ahci/ssd-no-model" '\] ahci0\.1: sdb: \(no model\), 16384 sectors, non-rotating, NCQ'
expect_out "odd/devices/ahci/cd-media" '\] ahci0\.2: ATAPI device "QEMU DVD-ROM": not handled by this driver, left alone'
expect_out "odd/devices/ahci/cd-empty" '\] ahci0\.5: ATAPI device "QEMU DVD-ROM": not handled by this driver, left alone'
expect_fixed "odd/devices/ahci/odd-model" "ahci0.3: sdc: %s%n\"\\??,x<>|0123456789ABCDEFGHIJKLMNOPQ, 16384 sectors"
expect_fixed "odd/devices/ahci/odd-model-lsblk" " 16384  1 disk %s%n\"\\??,x<>|0123456789ABCDEFGHIJKLMNOPQ"
expect_out "odd/devices/ahci/empty-image" '\] ahci0\.4: IDENTIFY DEVICE failed \(no medium found, PxTFD [0-9a-f]{4}\); skipped'
expect_out "odd/devices/ahci/three-disks" '^sdc +8:32 '
expect_no_out "odd/devices/ahci/no-fourth" '^sdd '

# shellcheck disable=SC2046
boot odd-devices-ide --machine pc --timeout 60 --cmdline 'run="lsblk; part hdb"' -- \
	$(cd_drive c0 bus=ide.0,unit=0) \
	$(hd d1 "$img/p512e-ide.raw" bus=ide.0,unit=1,physical_block_size=4096) \
	$(hd d2 "$img/empty-ide.raw" bus=ide.1,unit=0) \
	$(cd_drive c3 "$img/cd.iso" bus=ide.1,unit=1)
expect_rc "odd/devices/ide/boot" 0
expect_out "odd/devices/ide/cd-master" '\] hda: ATAPI device "QEMU DVD-ROM": not handled by this driver, left alone'
expect_out "odd/devices/ide/512e-slave" '\] hdb: QEMU HARDDISK, 64 MiB \(131072 sectors\), 4096-byte physical sectors, LBA48'
expect_out "odd/devices/ide/512e-misaligned" '\] hdb1: starts at sector 63, not on a 4096-byte physical sector'
part_matches "odd/devices/ide/512e-partitions" hdb "$img/p512e.raw" <(sfdisk --json "$img/p512e.raw")
expect_out "odd/devices/ide/empty-image" '\] hdc: IDENTIFY DEVICE failed: no medium found; drive ignored'
expect_out "odd/devices/ide/cd-slave" '\] hdd: ATAPI device "QEMU DVD-ROM": not handled by this driver, left alone'
expect_out "odd/devices/ide/one-disk" '^hdb +3:64 +64M +131072 '
expect_no_out "odd/devices/ide/no-other" '^hd[acd] '

# -- ext2: six filesystems on pc's ich9-ahci, three on IDE (one in logical partition 60) --
e60_off=$(( (4096 + 55 * 2048 + 63) * 512 ))
ext2_disks=(--disk "$img/e1.raw,bus=ahci" --disk "$img/e2.raw,bus=ahci" --disk "$img/e4.raw,bus=ahci"
	    --disk "$img/e4i.raw,bus=ahci" --disk "$img/e1r.raw,bus=ahci" --disk "$img/e8k.raw,bus=ahci"
	    --disk "$img/e60.raw,bus=ide" --disk "$img/eshort.raw,bus=ide" --disk "$img/es2.raw,bus=ide"
	    --disk "$img/emeta.raw,bus=ide")
fs_names=(e1:sda e2:sdb e4:sdc e4i:sdd e1r:sde e60:hda60 es2:hdc emeta:hdd)
boot odd-ext2-ro --machine pc --timeout 60 "${ext2_disks[@]}" \
	--cmdline 'run="mount; cat /hda60/hello.txt; sha256sum /sdc/r.bin; write /sde/x y"'
expect_rc "odd/ext2/ro/verdict" 1		# the write must fail
expect_out "odd/ext2/ro/write-refused" '^write: [^ ]+: read-only file system$'
expect_out "odd/ext2/ro/hda60-mounted" '^hda60 on /hda60 type ext2 \(ro\)$'
expect_out "odd/ext2/ro/hda60-read" '^hello$'
expect_out "odd/ext2/ro/sdc-read" "^$(sha256sum <"$img/src/r.bin" | cut -d' ' -f1)  /sdc/r.bin$"
expect_out "odd/ext2/8k-blocks-named" '\] ext2 \(sdf\): 8192-byte blocks are not supported \(at most 4096\)'
expect_out "odd/ext2/larger-than-disk-named" '\] ext2 \(hdb\): the filesystem \(16777216 bytes\) is larger than the device \(12582912 bytes\)'
for f in e1 e2 e4 e4i e1r e8k e60 es2 eshort emeta; do same_bytes "odd/ext2/ro/$f-unchanged" "$img/$f.raw"; done

ops=""
for fd in "${fs_names[@]}"; do
	d=${fd#*:}
	ops+="write /$d/n kernel; mkdir /$d/m; fill /$d/m/f 300000 7; cp /$d/r.bin /$d/dir/r2; rm /$d/hello.txt; "
done
# meta_bg: 9 MB reach groups past the first meta group (32 groups of 256 KiB)
ops+="fill /hdd/big 9000000 5"
boot odd-ext2-rw --machine pc --timeout 90 "${ext2_disks[@]}" --cmdline "writable=all run=\"$ops\""
expect_rc "odd/ext2/rw/verdict" 0
python3 tools/fillgen.py 300000 7 >"$img/fill.want"
for fd in "${fs_names[@]}"; do
	f=${fd%:*}
	fs=$img/$f.raw
	[ "$f" = e60 ] && fs="$fs?offset=$e60_off"
	if e2fsck -fn "$fs" >"$img/$f.e2fsck" 2>&1; then ok "odd/ext2/rw/$f-e2fsck"; else
		notok "odd/ext2/rw/$f-e2fsck" "$(tail -n 2 "$img/$f.e2fsck" | tr '\n' ' ')"; fi
	rm -f "$img/$f.fill" "$img/$f.copy"
	debugfs -R "dump /m/f $img/$f.fill" "$fs" >/dev/null 2>&1
	debugfs -R "dump /dir/r2 $img/$f.copy" "$fs" >/dev/null 2>&1
	if [ "$(debugfs -R 'cat /n' "$fs" 2>/dev/null)" = kernel ] && cmp -s "$img/$f.fill" "$img/fill.want" &&
	   cmp -s "$img/$f.copy" "$img/src/r.bin" && ! debugfs -R 'ls /' "$fs" 2>/dev/null | grep -q hello.txt; then
		ok "odd/ext2/rw/$f-content"
	else
		notok "odd/ext2/rw/$f-content" "debugfs does not read back what the kernel wrote ($fs)"
	fi
done
debugfs -R "dump /big $img/emeta.big" "$img/emeta.raw" >/dev/null 2>&1
if python3 tools/fillgen.py 9000000 5 | cmp -s - "$img/emeta.big"; then ok "odd/ext2/rw/emeta-big"; else
	notok "odd/ext2/rw/emeta-big" "/big on the meta_bg filesystem differs"; fi
same_bytes "odd/ext2/rw/e8k-unchanged" "$img/e8k.raw"
same_bytes "odd/ext2/rw/eshort-unchanged" "$img/eshort.raw"
# Partition 60's neighbours: every byte outside it is as before.
if python3 - "$img/e60.raw" "$img/e60.orig" "$e60_off" $((1955 * 512)) <<-'PY'
	import sys
	a, b = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
	lo, n = int(sys.argv[3]), int(sys.argv[4])
	sys.exit(a[:lo] != b[:lo] or a[lo + n:] != b[lo + n:])
	PY
then ok "odd/ext2/rw/e60-inside-its-partition"; else
	notok "odd/ext2/rw/e60-inside-its-partition" "bytes outside hda60 changed"; fi

# -- policy: writable= names sda1 and the disk that fails every write --
boot odd-policy --machine q35 --timeout 60 --disk "$img/w.raw" \
	--cmdline 'writable=sda1,sdb run="dd if=sda1 of=sda2 count=1; dd if=sda2 of=sda count=1; dd if=sda2 of=sda1 seek=4095 count=1; dd if=sda2 of=sda1 seek=4095 count=2; dd if=sda1 of=sdb count=1"' -- \
	-drive "if=none,id=wf,format=raw,file=blkdebug:$img/wfail.cfg:$img/wfail.raw,werror=report,rerror=report" \
	-device ide-hd,drive=wf,bus=ide.1
expect_rc "odd/policy/verdict" 1
expect_out "odd/policy/partition-refused" '^dd: sda2: read-only file system$'
expect_out "odd/policy/disk-refused" '^dd: sda: read-only file system$'
expect_out "odd/policy/end-of-partition" '^dd: writing sda1: no space left on device$'
expect_out "odd/policy/failing-disk" '^dd: writing sdb: I/O error$'
if grep -A2 '^dd: writing sdb: ' "$out" | tr '\n' ' ' | grep -q '1+0 records in 0+0 records out'; then
	ok "odd/policy/failing-disk-records"
else
	notok "odd/policy/failing-disk-records" "dd's record counts after the failed write (see $out)"
fi
same_bytes "odd/policy/failing-disk-unchanged" "$img/wfail.raw"
# w.raw: only sector 6143 (sda1's last) changed, to what sda2's first held.
if python3 - "$img/w.raw" "$img/w.orig" <<-'PY'
	import sys
	a, b = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
	s = 6143 * 512
	want = b[:s] + b[6144 * 512:6145 * 512] + b[s + 512:]
	sys.exit(a != want)
	PY
then ok "odd/policy/only-allowed-bytes"; else notok "odd/policy/only-allowed-bytes" "w.raw differs elsewhere"; fi
