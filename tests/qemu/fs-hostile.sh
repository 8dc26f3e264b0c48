#!/usr/bin/env bash
# Corrupt ext2 disks through the real kernel (AHCI, buffer cache, ext2),
# six at once on q35: a file block and an indirect block pointing at a
# bitmap and at the inode table, a flex_bg bitmap claiming another group's
# inode table free, group structures overlapping one another, names of
# reserved inodes and a directory without "..", the same bad pointers on a
# disk that is not writable, an absurd block size (the refused disks also
# mounted on a directory).  Every command on a corrupt object must fail
# with a message ("structure needs cleaning") and a log line naming the
# problem, the kernel must neither panic nor hang, and afterwards the host
# compares each image with its copy from before the boot: the refused and
# read-only disks are untouched, on the others only the superblock (the
# error state) and the blocks of the files the commands legitimately
# rewrote may change, never the metadata a bad pointer named; on the
# flex_bg disk e2fsck and debugfs judge the new file.
. "$(dirname "$0")/lib.bash"
export PATH=$PATH:/usr/sbin:/sbin E2FSPROGS_FAKE_TIME=1700000000

dir=$logdir/fs-hostile
rm -rf "$dir" && mkdir -p "$dir/src/a/b" "$dir/src/c"
echo hello >"$dir/src/f"
echo abc >"$dir/src/note"
python3 tools/fillgen.py 50000 1 >"$dir/src/big"
echo x >"$dir/src/a/b/inner"
mk() {	# IMAGE SIZE MKE2FS-OPTIONS...
	mke2fs -q -F -t ext2 -b 1024 -I 128 -m 0 -d "$dir/src" "${@:3}" "$1" "$2" >>"$dir/make.log" 2>&1
}
at() { dumpe2fs "$1" 2>/dev/null | sed -n "s/^  $2 at \([0-9]*\).*/\1/p" | sed -n "${3:-1}p"; }
ino() { debugfs -R "stat $2" "$1" 2>/dev/null | sed -n 's/^Inode: \([0-9]*\).*/\1/p'; }
dbg() { debugfs -w -f - "$1" >>"$dir/make.log" 2>&1; }

# sda, sde: /f's block 0 is the block bitmap, /big's indirect block the last inode table block.
mk "$dir/a.img" 8M
bb=$(at "$dir/a.img" 'Block bitmap')
itlast=$(dumpe2fs "$dir/a.img" 2>/dev/null | sed -n 's/^  Inode table at [0-9]*-\([0-9]*\).*/\1/p' | head -1)
printf '%s\n' "sif /f block[0] $bb" "sif /big block[IND] $itlast" | dbg "$dir/a.img"
cp "$dir/a.img" "$dir/e.img"
# sdb: flex_bg; group 0's bitmap says group 1's inode table (which lies in group 0) is free.
mk "$dir/b.img" 32M -O flex_bg -G 4
it1=$(at "$dir/b.img" 'Inode table' 2)
echo "freeb $it1 20" | dbg "$dir/b.img"
# sdc: group 0's block bitmap is its inode bitmap.
mk "$dir/c.img" 8M
echo "set_bg 0 block_bitmap $(at "$dir/c.img" 'Inode bitmap')" | dbg "$dir/c.img"
# sdd: names for the resize inode and the bad blocks list; /c without "..".
mk "$dir/d.img" 8M
printf '%s\n' "ln <7> /res7" "ln <1> /bad1" | dbg "$dir/d.img"
cblk=$(debugfs -R "blocks /c" "$dir/d.img" 2>/dev/null | awk '{print $1}')
printf '\x00\x04' | dd of="$dir/d.img" bs=1 seek=$((cblk * 1024 + 4)) conv=notrunc status=none
# sdf: s_log_block_size 20.
mk "$dir/f.img" 8M
printf '\x14' | dd of="$dir/f.img" bs=1 seek=$((1024 + 24)) conv=notrunc status=none
for d in a b c d e f; do cp "$dir/$d.img" "$dir/$d.orig"; done

cmds="cat /sda/f; sha256sum /sda/big; dd if=/sda/note of=/sda/f bs=3 count=1; write /sda/f x"
cmds+="; cp /sda/note /sda/big; fill /sda/big 100000 1; df"
cmds+="; fill /sdb/new 30000 1; sha256sum /sdb/new; mkdir /sdb/mnt; mount sdc /sdb/mnt; mount sdf /sdb/mnt"
cmds+="; rmdir /sdb/mnt"
cmds+="; ls /sdc"
cmds+="; sha256sum /sdd/res7; fill /sdd/res7 3000 1; rm /sdd/res7; stat /sdd/bad1; mv /sdd/c /sdd/a/c"
cmds+="; cat /sde/f; sha256sum /sde/big; dd if=/sde/note of=/sde/f bs=3 count=1"
cmds+="; ls /sdf"
disks=()
for d in a b c d e f; do disks+=(--disk "$dir/$d.img,bus=ahci"); done
boot fs-hostile --machine q35 --timeout 60 "${disks[@]}" \
	--cmdline "writable=sda,sdb,sdc,sdd,sdf run=\"$cmds\""
expect_rc "fs-hostile/run_fails_cleanly" 1
expect_no_out "fs-hostile/no_panic" 'panic|Oops|exception'

fino=$(ino "$dir/a.img" /f) bino=$(ino "$dir/a.img" /big)
expect_out "fs-hostile/pointer/cat" '^cat: [^ ]+: structure needs cleaning'
expect_out "fs-hostile/pointer/reported" "ext2 \(sda\): error in bmap: inode $fino: block $bb \(for block 0\) out of range or metadata"
expect_out "fs-hostile/pointer/indirect_reported" "ext2 \(sda\): error in bmap: inode $bino: block $itlast \(for block 12\) out of range or metadata"
expect_out "fs-hostile/pointer/dd" '^dd: .*structure needs cleaning'
expect_out "fs-hostile/pointer/write" '^write: [^ ]+: structure needs cleaning'
expect_out "fs-hostile/pointer/cp" '^cp: [^ ]+: structure needs cleaning'
expect_out "fs-hostile/pointer/fill" '^fill: [^ ]+: structure needs cleaning'
expect_out "fs-hostile/pointer/df_errors" '^sda .* /sda \(errors\)$'
expect_out "fs-hostile/flex_bg/reported" "ext2 \(sdb\): error in new_block: bitmap of group 0 marks metadata blocks $it1-$((it1 + 19)) free"
expect_out "fs-hostile/flex_bg/file_written" "^$(python3 tools/fillgen.py 30000 1 | sha256sum | cut -c1-64)  /sdb/new\$"
expect_out "fs-hostile/overlap/refused" "ext2 \(sdc\): group 0's .* overlaps group 0's "
for d in sdc sdf; do
	expect_out "fs-hostile/mount_on_dir/$d/refused" "^mount: $d: not mounted: the filesystem refused it"
done
expect_no_out "fs-hostile/mount_on_dir/directory_released" '^rmdir: '

expect_out "fs-hostile/overlap/not_mounted" '^ls: [^ ]+: no such file or directory'
expect_out "fs-hostile/reserved/refused" "ext2 \(sdd\): error in iget: inode number 7 out of range or reserved"
expect_out "fs-hostile/reserved/bad_blocks_inode" "ext2 \(sdd\): error in iget: inode number 1 out of range or reserved"
expect_out "fs-hostile/no_dotdot/reported" "ext2 \(sdd\): error in dir: directory inode $(ino "$dir/d.img" /c) has no \"..\""
expect_out "fs-hostile/no_dotdot/mv" '^mv: [^ ]+ -> [^ ]+: structure needs cleaning'
expect_out "fs-hostile/read_only/cat" "ext2 \(sde\): error in bmap: inode $fino: block $bb"
expect_out "fs-hostile/read_only/dd" '^dd: .*read-only file system'
expect_out "fs-hostile/block_size/refused" 'ext2 \(sdf\): impossible geometry in the superblock: block size'

# sdd: only the superblock (block 1: the error state and times) may change.
changed() { cmp -l "$1" "$2" | awk '{print int(($1 - 1) / 1024)}' | sort -un | tr '\n' ' '; }
c=$(changed "$dir/d.img" "$dir/d.orig")
[ "$c" = "1 " ] && ok "fs-hostile/sdd/only_superblock_changed" ||
	notok "fs-hostile/sdd/only_superblock_changed" "1 KiB blocks changed: $c"
# sda: the truncates of cp and fill dropped the bad pointers and freed /big's
# own blocks, and fill wrote it anew.  Besides the superblock, descriptors
# and the inodes of /f and /big, only /big's old and new data blocks and
# their bits in the bitmap may change: never the inode table block the bad
# indirect pointer named, nor any bitmap bit of another block.
python3 - "$dir/a.img" "$dir/a.orig" "$bb" "$itlast" \
	"$(debugfs -R "imap /f" "$dir/a.orig" 2>/dev/null; debugfs -R "imap /big" "$dir/a.orig" 2>/dev/null)" \
	"$(debugfs -R "blocks /big" "$dir/a.orig" 2>/dev/null) $(debugfs -R "blocks /big" "$dir/a.img" 2>/dev/null)" \
	<<'PY' >"$dir/a.check" && ok "fs-hostile/sda/only_own_blocks_changed" ||
import re, sys
new, old = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
bb, bad = int(sys.argv[3]), int(sys.argv[4])
inodes = {int(b) for b in re.findall(r"located at block (\d+)", sys.argv[5])}
data = {int(b) for b in sys.argv[6].split()} - {bad, bb}
blk = lambda img, b: img[b * 1024:(b + 1) * 1024]
changed = {b for b in range(len(old) // 1024) if blk(new, b) != blk(old, b)}
extra = changed - {1, 2, bb} - inodes - data
bits = {i * 8 + k + 1 for i, (x, y) in enumerate(zip(blk(new, bb), blk(old, bb)))
        for k in range(8) if (x ^ y) >> k & 1}
if extra or bad in changed or bits - data:
    sys.exit(f"changed outside: {sorted(extra)}; bad block changed: {bad in changed}; bits: {sorted(bits - data)}")
PY
	notok "fs-hostile/sda/only_own_blocks_changed" "$(cat "$dir/a.check")"
for d in a d; do
	dumpe2fs -h "$dir/$d.img" 2>/dev/null | grep -q '^Filesystem state:.*with errors' &&
		ok "fs-hostile/sd$d/marked_with_errors" || notok "fs-hostile/sd$d/marked_with_errors" "state"
done
for d in c e f; do
	cmp -s "$dir/$d.img" "$dir/$d.orig" && ok "fs-hostile/sd$d/untouched" ||
		notok "fs-hostile/sd$d/untouched" "blocks changed: $(changed "$dir/$d.img" "$dir/$d.orig")"
done
# sdb: the new file is outside every inode table, intact, and the other groups' inodes too.
blocks=$(debugfs -R "blocks /new" "$dir/b.img" 2>/dev/null)
bad=$(for b in $blocks; do dumpe2fs "$dir/b.img" 2>/dev/null | sed -n 's/^  Inode table at \([0-9]*\)-\([0-9]*\).*/\1 \2/p' |
	awk -v b="$b" '$1 <= b && b <= $2 {print b}'; done)
[ -n "$blocks" ] && [ -z "$bad" ] && ok "fs-hostile/flex_bg/no_inode_table_block" ||
	notok "fs-hostile/flex_bg/no_inode_table_block" "blocks of /new: $blocks"
debugfs -R "dump /new $dir/b.new" "$dir/b.img" >/dev/null 2>&1
python3 tools/fillgen.py 30000 1 | cmp -s - "$dir/b.new" && ok "fs-hostile/flex_bg/host_reads_file" ||
	notok "fs-hostile/flex_bg/host_reads_file" "debugfs dump differs"
if e2fsck -fn "$dir/b.img" >"$dir/b.e2fsck" 2>&1 || ! grep -qE '^(Inode|Entry|Illegal|Multiply)' "$dir/b.e2fsck"; then
	ok "fs-hostile/flex_bg/e2fsck_no_damage"
else
	notok "fs-hostile/flex_bg/e2fsck_no_damage" "$(grep -m2 -E '^(Inode|Entry|Illegal|Multiply)' "$dir/b.e2fsck" | tr '\n' ' ')"
fi
