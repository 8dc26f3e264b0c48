#!/usr/bin/env bash
# ext4 in the kernel, judged by e2fsprogs: disks made by mkfs.ext4 with
# its defaults (extents, 64bit, flex_bg, metadata_csum, huge_file,
# dir_nlink, extra_isize, a journal) from a host tree -- a 4 KiB-block
# disk on AHCI (sda) and a 1 KiB-block one (mkfs's "small" default) on
# virtio (vda) -- are automounted: `mount` says ext4 (rw), every file's
# sha256sum equals the host's (through an htree directory of 2,000
# names), then the kernel writes (a big file, a note, a rename, a hard
# link, a symlink, an htree directory grown, a truncate) and powers off:
# e2fsck -fn clean and debugfs reads the bytes the host expects.  A
# mkfs.ext4 -O inline_data disk (sdb) mounts read-only with a line naming
# inline_data, reads its inline files, and is left byte-identical.
. "$(dirname "$0")/lib.bash"
export PATH=$PATH:/usr/sbin:/sbin E2FSPROGS_FAKE_TIME=1700000000

dir=$logdir/fs-ext4
rm -rf "$dir" && mkdir -p "$dir/src/sub/deeper" "$dir/src/names"
S=$dir/src
for n in 0 1 60 4095 4097 300000; do python3 tools/fillgen.py $n $n >"$S/f$n"; done
python3 tools/fillgen.py 20000000 7 >"$S/sub/big"
truncate -s 9000000 "$S/sparse"
python3 tools/fillgen.py 5000 8 | dd of="$S/sparse" bs=1 seek=4000000 conv=notrunc status=none
echo hello >"$S/sub/deeper/hello.txt"
for i in $(seq 1 2000); do echo "$i" >"$S/names/name-$i"; done
{
	mkfs.ext4 -q -F -d "$S" "$dir/a.img" 600M &&
	mkfs.ext4 -q -F -d "$S" "$dir/b.img" 160M &&
	e2fsck -fyD "$dir/a.img" && e2fsck -fyD "$dir/b.img"
} >"$dir/make.log" 2>&1
[ -s "$dir/b.img" ] || { notok "fs-ext4/images" "mkfs.ext4 failed (see $dir/make.log)"; exit 0; }
mkdir -p "$dir/isrc" && echo tiny-inline >"$dir/isrc/tiny" && python3 tools/fillgen.py 9000 3 >"$dir/isrc/mid"
mkfs.ext4 -q -F -O inline_data -d "$dir/isrc" "$dir/c.img" 16M >>"$dir/make.log" 2>&1
cp "$dir/c.img" "$dir/c.orig"
flags=$(debugfs -R "stat /names" "$dir/a.img" 2>/dev/null | sed -n 's/.*Flags: \(0x[0-9a-f]*\).*/\1/p')
[ $((${flags:-0} & 0x1000)) -ne 0 ] && ok "fs-ext4/host_htree_indexed" ||
	notok "fs-ext4/host_htree_indexed" "e2fsck -D did not index /names (flags $flags)"

files="f0 f1 f60 f4095 f4097 f300000 sub/big sparse sub/deeper/hello.txt names/name-1 names/name-1999"
cmds="mount"
for d in sda vda; do
	for f in $files; do cmds="$cmds; sha256sum /$d/$f"; done
	cmds="$cmds; fill /$d/written 5000000 11; mkdir /$d/new; fill /$d/new/big 30000000 12"
	cmds="$cmds; write /$d/note by-the-kernel; mv /$d/note /$d/sub/note; ln /$d/sub/note /$d/hard"
	cmds="$cmds; ln -s sub/note /$d/symlink; fill /$d/names/added-1 3000 13; write /$d/names/added-2 two"
	cmds="$cmds; rm /$d/names/name-17; mv /$d/names/name-18 /$d/names/renamed-18"
	cmds="$cmds; write /$d/f300000 shrunk; rm /$d/sub/big; sync"
done
cmds="$cmds; sha256sum /sdb/tiny; sha256sum /sdb/mid"
boot fs-ext4 --machine q35 --timeout 420 --disk "$dir/a.img,bus=ahci" --disk "$dir/c.img,bus=ahci" \
	--disk "$dir/b.img,bus=virtio" --cmdline "writable=all run=\"$cmds\""
expect_rc "fs-ext4/run" 0

for d in sda vda; do
	name=fs-ext4/$d
	expect_out "$name/mount_says_ext4" "^$d on /$d type ext4 \\(rw\\)"
	for f in $files; do
		expect_out "$name/sha_$f" "^$(sha256sum <"$S/$f" | cut -c1-64)  /$d/$f\$"
	done
done
expect_out "fs-ext4/sdb/inline_data_named" 'inline_data'
expect_out "fs-ext4/sdb/mount_read_only" '^sdb on /sdb type ext4 \(ro\)'
expect_out "fs-ext4/sdb/sha_tiny" "^$(sha256sum <"$dir/isrc/tiny" | cut -c1-64)  /sdb/tiny\$"
expect_out "fs-ext4/sdb/sha_mid" "^$(sha256sum <"$dir/isrc/mid" | cut -c1-64)  /sdb/mid\$"
# A write to the read-only inline_data disk fails with a clear line (its own boot:
# the failing command ends the run with a non-zero status).
boot fs-ext4-ro --machine q35 --timeout 120 --disk "$dir/c.img,bus=ahci" \
	--cmdline 'writable=all run="write /sda/new x"'
expect_out "fs-ext4/inline/write_refused" '^write: /sda/new: read-only file system$'
cmp -s "$dir/c.img" "$dir/c.orig" && ok "fs-ext4/sdb/image_untouched" ||
	notok "fs-ext4/sdb/image_untouched" "the kernel wrote to a read-only mount"

# What the host must read back (debugfs cat FILE = the bytes of the model).
python3 tools/fillgen.py 30000000 12 >"$dir/want.big"
python3 tools/fillgen.py 5000000 11 >"$dir/want.written"
python3 tools/fillgen.py 3000 13 >"$dir/want.added"
for img in a b; do
	name=fs-ext4/$img.img
	i=$dir/$img.img
	e2fsck -fn "$i" >"$i.fsck" 2>&1 && ok "$name/e2fsck_clean" ||
		notok "$name/e2fsck_clean" "$(grep -v '^Pass\|^e2fsck' "$i.fsck" | head -3 | tr '\n' ' ')"
	same() {	# same TESTNAME PATH WANTFILE
		debugfs -R "dump $2 $i.out" "$i" >/dev/null 2>&1
		cmp -s "$i.out" "$3" && ok "$name/debugfs_$1" || notok "$name/debugfs_$1" "$2 differs"
	}
	same big /new/big "$dir/want.big"
	same written /written "$dir/want.written"
	same added /names/added-1 "$dir/want.added"
	same sparse /sparse "$S/sparse"
	same name1999 /names/name-1999 "$S/names/name-1999"
	[ "$(debugfs -R 'cat /hard' "$i" 2>/dev/null)" = by-the-kernel ] && ok "$name/debugfs_hard_link" ||
		notok "$name/debugfs_hard_link" "content"
	[ "$(debugfs -R 'cat /f300000' "$i" 2>/dev/null)" = shrunk ] && ok "$name/debugfs_truncated" ||
		notok "$name/debugfs_truncated" "content"
	debugfs -R "stat /symlink" "$i" 2>/dev/null | grep -q 'Fast link dest: "sub/note"' &&
		ok "$name/debugfs_symlink" || notok "$name/debugfs_symlink" "target"
	# Live names only: a removed entry that opened its block keeps its name
	# with inode 0 (as Linux leaves it), and debugfs ls shows it.
	names=$(debugfs -R "ls -l /names" "$i" 2>/dev/null | awk '$1 != 0 { print $NF }')
	grep -qx 'renamed-18' <<<"$names" && ! grep -qx 'name-17' <<<"$names" &&
		ok "$name/debugfs_htree_changes" || notok "$name/debugfs_htree_changes" "names"
	flags=$(debugfs -R "stat /new/big" "$i" 2>/dev/null | sed -n 's/.*Flags: \(0x[0-9a-f]*\).*/\1/p')
	[ $((${flags:-0} & 0x80000)) -ne 0 ] && ok "$name/new_file_extents" ||
		notok "$name/new_file_extents" "flags $flags"
done
