#!/usr/bin/env bash
# ext4 groups in the kernel over AHCI, judged by e2fsprogs: a mkfs.ext4
# image (every default but extents, and crc16 descriptor checksums, so
# that e2fsck judges all of it before the inode and directory checksums
# exist) is probed as ext4 -- `mount` and `df` say so -- and written
# through groups that were BLOCK_UNINIT: e2fsck -fn clean, fewer uninit
# groups, debugfs reads the bytes.  A second image with a descriptor
# checksum broken mounts read-only, named by group, and is not written.
. "$(dirname "$0")/lib.bash"

mk4() {	# mk4 IMG OPTIONS...
	local img=$1
	shift
	rm -f "$img"
	mkfs.ext4 -q -F -b 1024 "$@" "$img" 64M >/dev/null 2>&1
}
uninit() { dumpe2fs "$1" 2>/dev/null | grep -c BLOCK_UNINIT || true; }

name=fs-ext4grp/write
img=$logdir/fs-ext4grp.img
mk4 "$img" -O ^extent,^64bit,^metadata_csum,uninit_bg
before=$(uninit "$img")
ops='mount; df; mkdir /sda/d; fill /sda/d/big 20000000 7; write /sda/note by-the-kernel; sync'
boot fs-ext4grp --machine q35 --timeout 240 --disk "$img,bus=ahci" \
	--cmdline "writable=sda run=\"$ops\""
expect_rc "$name/run" 0
expect_out "$name/mount_says_ext4" '^sda on /sda type ext4 \(rw\)'
expect_out "$name/df_says_ext4" '^sda +ext4 .* /sda$'
e2fsck -fn "$img" >"$img.fsck" 2>&1 && ok "$name/e2fsck_clean" ||
	notok "$name/e2fsck_clean" "$(tail -3 "$img.fsck" | tr '\n' ' ')"
after=$(uninit "$img")
[ "$after" -lt "$before" ] && ok "$name/uninit_groups_taken_into_use" ||
	notok "$name/uninit_groups_taken_into_use" "$before -> $after"
debugfs -R "dump /d/big $img.big" "$img" >/dev/null 2>&1
python3 tools/fillgen.py 20000000 7 | cmp -s - "$img.big" && ok "$name/debugfs_big" ||
	notok "$name/debugfs_big" "content differs from tools/fillgen.py"

name=fs-ext4grp/bad-desc
img=$logdir/fs-ext4grp-bad.img
mk4 "$img" -O ^extent,^64bit,^has_journal
# 1 KiB blocks: the descriptor table is block 2; group 1's bg_checksum at 32 + 0x1E
printf '\xAA\x55' | dd of="$img" bs=1 seek=$((2048 + 32 + 30)) conv=notrunc 2>/dev/null
cp "$img" "$img.before"
boot fs-ext4grp-bad --machine q35 --timeout 120 --disk "$img,bus=ahci" \
	--cmdline "writable=sda run=\"mount; write /sda/x y\""
expect_out "$name/group_named" 'group 1: descriptor checksum mismatch'
expect_out "$name/mounted_read_only" '^sda on /sda type ext4 \(ro\)'
cmp -s "$img" "$img.before" && ok "$name/image_untouched" ||
	notok "$name/image_untouched" "the kernel wrote to a read-only mount"
