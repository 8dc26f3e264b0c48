#!/usr/bin/env bash
# NVMe disks as a user meets them: partition tables made by sfdisk (MBR
# with logical partitions, GPT) appear as nvme0n1p1... exactly as the host
# sees them; ext2 on a namespace is mounted, written and judged by the
# host's e2fsck and debugfs; blkdiscard deallocates (QEMU punches holes in
# the image with discard=unmap, and the range reads back as zeroes) and
# blkzeroout writes zeroes, with the bytes around both kept.
. "$(dirname "$0")/nvme-lib.bash"

# lsblk_matches TAG DISK IMAGE: DISK's partitions in the last boot's lsblk
# have the sizes sfdisk reads from IMAGE.
lsblk_matches() {
	local tag=$1 disk=$2 img=$3 name size type n
	expect_out "$tag/$disk-listed" "^$disk +[0-9]+:[0-9]+ +[^ ]+ +$(( $(stat -c %s "$img") / 512 )) +1 disk"
	while read -r name size type; do
		n=${name##*.raw}
		case $type in 5|f|85) continue ;; esac	# extended: a 1-sector window, as in Linux
		expect_out "$tag/${disk}p$n-matches-sfdisk" "^${disk}p$n +[0-9]+:[0-9]+ +[^ ]+ +$size +1 part"
	done < <(sfdisk -q --dump "$img" 2>/dev/null |
		 sed -n 's/^\([^ ]*\) : start= *[0-9]*, size= *\([0-9]*\), type=\([0-9a-fA-F-]*\).*/\1 \2 \3/p')
}

mbr=$imgdir/mbr.raw gpt=$imgdir/gpt.raw
truncate -s 128M "$mbr" "$gpt"
printf 'label: dos\nunit: sectors\n\nstart=2048, size=32M, type=83, bootable\nstart=67584, size=16M, type=83\ntype=5\nsize=20M, type=83\nsize=10M, type=83\ntype=83\n' |
	sfdisk -q "$mbr"
printf 'label: gpt\nfirst-lba: 2048\n\nsize=8MiB, type=L, name="one"\nsize=24MiB, type=L, name="two"\ntype=L, name="three"\n' |
	sfdisk -q "$gpt"
boot nvme-partitions --machine q35 --timeout 120 --disk "$mbr,bus=nvme" --disk "$gpt,bus=nvme" \
	--cmdline 'run="lsblk"'
expect_rc "nvme-fs/partitions/run" 0
lsblk_matches nvme-fs/mbr nvme0n1 "$mbr"
lsblk_matches nvme-fs/gpt nvme1n1 "$gpt"

# ext2 (4 KiB blocks) in GPT partition 2 of the demo's disk, as nvme0n1p2.
demo=$logdir/nvme-fs-demo
tools/mkdemo "$demo" >/dev/null
img=$imgdir/ext2.raw
cp "$demo/ahci0.img" "$img"
boot nvme-ext2 --machine q35 --timeout 180 --disk "$img,bus=nvme" \
	--cmdline 'writable=nvme0n1 run="write /nvme0n1p2/note.txt written-over-nvme; mkdir /nvme0n1p2/d; cp /nvme0n1p2/random.bin /nvme0n1p2/d/copy.bin; fill /nvme0n1p2/d/filled.bin 3000000 11; rm /nvme0n1p2/hello.txt"'
expect_rc "nvme-fs/ext2/run" 0
fs="$img?offset=$((18432 * 512))"
if e2fsck -fn "$fs" >"$imgdir/e2fsck.txt" 2>&1; then ok "nvme-fs/ext2/e2fsck-clean"; else
	notok "nvme-fs/ext2/e2fsck-clean" "$(tail -3 "$imgdir/e2fsck.txt" | tr '\n' ' ')"; fi
got=$(debugfs -R 'cat /note.txt' "$fs" 2>/dev/null)
[ "$got" = written-over-nvme ] && ok "nvme-fs/ext2/write" || notok "nvme-fs/ext2/write" "got '$got'"
debugfs -R "dump /d/copy.bin $imgdir/copy.bin" "$fs" >/dev/null 2>&1
debugfs -R "dump /random.bin $imgdir/orig.bin" "$fs" >/dev/null 2>&1
cmp -s "$imgdir/copy.bin" "$imgdir/orig.bin" && ok "nvme-fs/ext2/cp" || notok "nvme-fs/ext2/cp" "copy differs"
debugfs -R "dump /d/filled.bin $imgdir/filled.bin" "$fs" >/dev/null 2>&1
python3 tools/fillgen.py 3000000 11 | cmp -s - "$imgdir/filled.bin" && ok "nvme-fs/ext2/fill" ||
	notok "nvme-fs/ext2/fill" "filled.bin differs from tools/fillgen.py"
debugfs -R 'ls /' "$fs" 2>/dev/null | grep -q hello.txt && notok "nvme-fs/ext2/rm" "still there" ||
	ok "nvme-fs/ext2/rm"

# Discard and write zeroes: the host fills the image with non-zero bytes;
# the kernel deallocates 8 MiB at 4 MiB and zeroes 1 MiB at 16 MiB.
img=$imgdir/discard.raw
head -c $((32 << 20)) /dev/zero | tr '\0' '\132' >"$img"
before=$(du -k "$img" | cut -f1)
boot nvme-discard --machine q35 --timeout 120 --disk "$img,bus=nvme,discard=unmap" \
	--cmdline 'writable=nvme0n1 run="blkdiscard nvme0n1 4M 8M; hexdump nvme0n1 4194288 32; hexdump nvme0n1 12582896 32; blkzeroout nvme0n1 16M 1M; hexdump nvme0n1 16777200 32; hexdump nvme0n1 17825776 32"'
expect_rc "nvme-fs/discard/run" 0
expect_out "nvme-fs/discard/blkdiscard" '^blkdiscard: nvme0n1: 8388608 bytes at 4194304$'
expect_out "nvme-fs/discard/before-kept" '^003ffff0  5a 5a 5a 5a 5a 5a 5a 5a  5a 5a 5a 5a 5a 5a 5a 5a '
expect_out "nvme-fs/discard/reads-zero" '^00400000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 '
expect_out "nvme-fs/discard/end-zero" '^00bffff0  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 '
expect_out "nvme-fs/discard/after-kept" '^00c00000  5a 5a 5a 5a 5a 5a 5a 5a  5a 5a 5a 5a 5a 5a 5a 5a '
expect_out "nvme-fs/zeroout/done" '^blkzeroout: nvme0n1: 1048576 bytes at 16777216$'
expect_out "nvme-fs/zeroout/zero" '^01000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 '
expect_out "nvme-fs/zeroout/after-kept" '^01100000  5a 5a 5a 5a 5a 5a 5a 5a  5a 5a 5a 5a 5a 5a 5a 5a '
after=$(du -k "$img" | cut -f1)
if [ $((before - after)) -ge 8192 ]; then ok "nvme-fs/discard/image-has-holes"; else
	notok "nvme-fs/discard/image-has-holes" "allocated ${before}k before, ${after}k after"; fi
if qemu-img map --output=json -f raw "$img" 2>/dev/null |
	grep -q '"start": 4194304, "length": 8388608, .*"data": false'; then
	ok "nvme-fs/discard/qemu-img-map-hole"
else
	notok "nvme-fs/discard/qemu-img-map-hole" "$(qemu-img map --output=json -f raw "$img" | head -5 | tr '\n' ' ')"
fi
cmp -s <(head -c $((4 << 20)) "$img") <(head -c $((4 << 20)) /dev/zero | tr '\0' '\132') &&
	ok "nvme-fs/discard/host-before-kept" || notok "nvme-fs/discard/host-before-kept" "first 4 MiB changed"
cmp -s <(tail -c +$(((4 << 20) + 1)) "$img" | head -c $((8 << 20))) <(head -c $((8 << 20)) /dev/zero) &&
	ok "nvme-fs/discard/host-reads-zero" || notok "nvme-fs/discard/host-reads-zero" "range not zero in the image"
