#!/usr/bin/env bash
# ext2 against hostile and read-only images: a read-only device refuses
# every write with -EROFS and stays byte-identical; unknown ro_compat
# features mount read-only, unknown incompat features and a journal that
# needs recovery refuse the mount; bad magic and impossible geometry
# refuse it; a block pointer out of range, a ".." loop and a rec_len of 0
# fail that object with -EUCLEAN (117), mark the filesystem with errors,
# and never crash or hang (every run is under a timeout, with ASan/UBSan).
source "$(dirname "$0")/common.bash"
build_fscli

S=$T/src
mkdir -p $S/a/b $S/c
echo hello > $S/f
python3 tools/fillgen.py 50000 1 > $S/big
echo x > $S/a/b/inner

fresh() { mkimg $T/img 8M "$S" -b 1024 -I 128; }
# patch IMG OFFSET STRUCTFMT VALUE: write one little-endian field
patch() { python3 -c 'import struct,sys; f=open(sys.argv[1],"r+b"); f.seek(int(sys.argv[2])); f.write(struct.pack("<"+sys.argv[3], int(sys.argv[4],0)))' "$@"; }
field() { python3 -c 'import struct,sys; f=open(sys.argv[1],"rb"); f.seek(int(sys.argv[2])); print(struct.unpack("<"+sys.argv[3], f.read(struct.calcsize(sys.argv[3])))[0])' "$@"; }
run() {	# run [fscli options] < script: output in $T/out, status in $rc
	FSCLI_VERBOSE=${FSCLI_VERBOSE:-} timeout 60 $FSCLI "$@" $T/img > $T/out 2>$T/err
	rc=$?
}
all_rc() { ! grep '^= ' $T/out | grep -vqx "= $1"; }

WRITES='write /d/f new
append /d/f more
pwrite /d/big 10 x
truncate /d/big 0
fill /d/new 100 1
mkdir /d/nd
rmdir /d/c
rm /d/f
mv /d/f /d/g
ln /d/f /d/h
symlink f /d/s
write /d/a/b/newer x'

# Read-only device.
fresh
cp $T/img $T/orig
run -r < <(echo "$WRITES")
check "readonly/every_write_EROFS" all_rc -30
check "readonly/clean_exit" test $rc -eq 0
check "readonly/image_byte_identical" cmp -s $T/img $T/orig
run -r < <(echo "sha /d/big")
check "readonly/reads_work" grep -q "$(sha256sum < $S/big | cut -c1-64)" $T/out

# Unknown ro_compat feature: mounted read-only, nothing written.
fresh
ro=$(field $T/img $((1024 + 100)) I)
patch $T/img $((1024 + 100)) I $((ro | 0x80000000))
cp $T/img $T/orig
run < <({ echo df; echo "$WRITES"; })
check "ro_compat_unknown/mounts" grep -qx "mount = 0" $T/out
check "ro_compat_unknown/reported_read_only" grep -q "^bsize=.* ro" $T/out
check "ro_compat_unknown/writes_EROFS" sh -c "grep '^= ' $T/out | tail -n +2 | grep -vqx '= -30'; test \$? -eq 1"
check "ro_compat_unknown/image_byte_identical" cmp -s $T/img $T/orig

# Refused mounts: unknown incompat, extents, needs_recovery, bad magic, geometry.
refuse() {	# refuse NAME OFFSET FMT VALUE
	fresh
	patch $T/img "$2" "$3" "$4"
	cp $T/img $T/orig
	FSCLI_VERBOSE=1; run < <(echo "ls /d"); FSCLI_VERBOSE=
	check "$1/mount_refused" grep -qx "mount = -22" $T/out
	check "$1/no_crash" test $rc -eq 3
	check "$1/image_untouched" cmp -s $T/img $T/orig
}
inc=$(mkimg $T/img 8M "" -b 1024; field $T/img $((1024 + 96)) I)
refuse incompat_unknown $((1024 + 96)) I $((inc | 0x80000000))
check "incompat_unknown/message_names_feature" grep -q "unsupported features: 0x80000000" $T/err
refuse incompat_casefold $((1024 + 96)) I $((inc | 0x20000))
check "incompat_casefold/message_names_feature" grep -q "unsupported features: casefold" $T/err
refuse needs_recovery $((1024 + 96)) I $((inc | 0x4))
check "needs_recovery/message" grep -q "needs recovery" $T/err
refuse bad_magic $((1024 + 56)) H 0x1234
refuse block_size_2MiB $((1024 + 24)) I 11
refuse blocks_beyond_device $((1024 + 4)) I 100000
refuse zero_inodes_per_group $((1024 + 40)) I 0
refuse group_desc_out_of_range 2048 I 99999999

# A block pointer out of range: -EUCLEAN for that file, the rest readable.
fresh
debugfs -w -R "sif /big block[2] 99999999" $T/img >/dev/null 2>&1
run < <(printf '%s\n' "sha /d/big" "cat /d/f" "df" "write /d/f ok")
check "bad_pointer/read_fails_EUCLEAN" sh -c "grep '^= ' $T/out | head -1 | grep -qx '= -117'"
check "bad_pointer/others_fine" grep -qx hello $T/out
check "bad_pointer/df_reports_errors" grep -q "^bsize=.* errors" $T/out
check "bad_pointer/clean_exit" test $rc -eq 0
check "bad_pointer/error_state_on_disk" sh -c "dumpe2fs -h $T/img 2>/dev/null | grep -q 'Filesystem state:.*with errors'"
fresh
debugfs -w -R "sif /big block[IND] 99999999" $T/img >/dev/null 2>&1
run < <(printf '%s\n' "sha /d/big" "truncate /d/big 0" "rm /d/big")
check "bad_indirect/no_crash" test $rc -eq 0
check "bad_indirect/read_fails_EUCLEAN" sh -c "grep '^= ' $T/out | head -1 | grep -qx '= -117'"

# A ".." loop: /a/b's ".." points at /a/b itself; moving a directory under it
# must walk up, find the loop, and stop.
fresh
bino=$(debugfs -R "stat /a/b" $T/img 2>/dev/null | sed -n 's/^Inode: \([0-9]*\).*/\1/p')
blk=$(debugfs -R "blocks /a/b" $T/img 2>/dev/null | awk '{print $1}')
patch $T/img $((blk * 1024 + 12)) I "$bino"
run < <(printf '%s\n' "mv /d/c /d/a/b/c" "ls /d/a/b/../../b/.." "stat /d/a/b/inner")
check "dotdot_loop/no_hang_no_crash" test $rc -eq 0
check "dotdot_loop/rename_EUCLEAN" sh -c "grep '^= ' $T/out | head -1 | grep -qx '= -117'"
# A directory hard-linked into its own subtree: path walks stay bounded.
fresh
debugfs -w -R "link /a /a/b/loop" $T/img >/dev/null 2>&1
run < <(printf '%s\n' "ls /d/a/b/loop/b/loop/b/loop/b/loop/b" "mv /d/c /d/a/b/loop/b/c2" "rmdir /d/a/b/loop")
check "dir_cycle/no_hang_no_crash" test $rc -eq 0
check "dir_cycle/walk_through_cycle" grep -q " inner$" $T/out

# A rec_len of 0 in a directory block.
fresh
blk=$(debugfs -R "blocks /a" $T/img 2>/dev/null | awk '{print $1}')
patch $T/img $((blk * 1024 + 12 + 4)) H 0
run < <(printf '%s\n' "ls /d/a" "stat /d/a/b" "write /d/a/new x" "ls /d")
check "rec_len_0/no_hang_no_crash" test $rc -eq 0
check "rec_len_0/ls_EUCLEAN" sh -c "grep '^= ' $T/out | head -1 | grep -qx '= -117'"
check "rec_len_0/other_dirs_fine" grep -q " big$" $T/out

# Symlink loops end in -ELOOP.
fresh
run < <(printf '%s\n' "symlink l2 /d/l1" "symlink l1 /d/l2" "cat /d/l1")
check "symlink_loop/ELOOP" sh -c "grep '^= ' $T/out | tail -1 | grep -qx '= -40'"

# State and mount count: a read-write mount counts itself and leaves the
# filesystem clean; a read-only mount changes nothing.
fresh
run < <(echo "write /d/n x")
check "state/clean_after_umount" sh -c "dumpe2fs -h $T/img 2>/dev/null | grep -q 'Filesystem state: *clean$'"
check "state/mount_count_1" sh -c "dumpe2fs -h $T/img 2>/dev/null | grep -q 'Mount count: *1$'"
run < <(echo "sync")
check "state/mount_count_2" sh -c "dumpe2fs -h $T/img 2>/dev/null | grep -q 'Mount count: *2$'"
run -r < <(echo "sync")
check "state/readonly_mount_not_counted" sh -c "dumpe2fs -h $T/img 2>/dev/null | grep -q 'Mount count: *2$'"

# Metadata is never file data.  changed_blocks IMG ORIG: the 1 KiB blocks
# that differ; only the superblock (1: state, times) may.
changed_blocks() { cmp -l "$1" "$2" | awk '{print int(($1 - 1) / 1024)}' | sort -un | tr '\n' ' '; }
geom() { dumpe2fs "$T/img" 2>/dev/null | sed -n "s/^  $1 at \([0-9]*\).*/\1/p" | sed -n "${2:-1}p"; }
# A block pointer at the superblock, the descriptors, a bitmap or the inode
# table: reads and writes fail with -EUCLEAN, nothing but the superblock
# changes.  (Before, a write through it overwrote the bitmap or the table.)
fresh
for what in superblock:1 descriptors:2 "block_bitmap:$(geom 'Block bitmap')" \
	    "inode_table:$(geom 'Inode table')"; do
	fresh
	debugfs -w -R "sif /f block[0] ${what#*:}" $T/img >/dev/null 2>&1
	cp $T/img $T/orig
	FSCLI_VERBOSE=1 run < <(printf '%s\n' "cat /d/f" "pwrite /d/f 0 xyz" "fill /d/f 5000 1" "sync")
	check "pointer_to_${what%:*}/refused" sh -c "grep '^= ' $T/out | head -3 | grep -vqx '= -117'; test \$? -eq 1"
	check "pointer_to_${what%:*}/reported" grep -q "block ${what#*:} (for block 0) out of range or metadata" $T/err
	check "pointer_to_${what%:*}/only_superblock_changed" test "$(changed_blocks $T/img $T/orig)" = "1 "
done
# An indirect block at the inode table: the read fails, truncate drops the
# pointer without freeing the table.
fresh
it=$(geom 'Inode table')
debugfs -w -R "sif /big block[IND] $it" $T/img >/dev/null 2>&1
run < <(printf '%s\n' "sha /d/big" "truncate /d/big 0")
check "indirect_at_inode_table/read_EUCLEAN" sh -c "grep '^= ' $T/out | head -1 | grep -qx '= -117'"
check "indirect_at_inode_table/still_in_use" sh -c "debugfs -R 'testb $it' $T/img 2>&1 | grep -q 'marked in use'"

# A bitmap that claims metadata free: with flex_bg, group 1's inode table
# lies in group 0, and group 0's bitmap says 20 of its blocks are free.  The
# allocator must report it and allocate elsewhere.
mkimg $T/img 32M "$S" -b 1024 -I 128 -O flex_bg -G 4
it1=$(geom 'Inode table' 2)
debugfs -w -R "freeb $it1 20" $T/img >/dev/null 2>&1
FSCLI_VERBOSE=1 run < <(printf '%s\n' "fill /d/new 30000 1" "df")
check "flex_bg_bitmap_claims_table_free/write_works" sh -c "grep '^= ' $T/out | head -1 | grep -qx '= 0'"
check "flex_bg_bitmap_claims_table_free/reported" grep -q "marks metadata blocks $it1-$((it1 + 19)) free" $T/err
check "flex_bg_bitmap_claims_table_free/table_not_allocated" sh -c \
	"debugfs -R 'blocks /new' $T/img 2>/dev/null | tr ' ' '\n' | awk '\$1 >= $it1 && \$1 < $it1 + 256' | grep -q .; test \$? -eq 1"
check "flex_bg_bitmap_claims_table_free/data_intact" bash -c \
	"debugfs -R 'cat /new' $T/img 2>/dev/null | cmp -s - <(python3 tools/fillgen.py 30000 1)"
check "flex_bg_bitmap_claims_table_free/other_groups_inodes_intact" sh -c \
	"e2fsck -fn $T/img 2>&1 | grep -q 'Inode.*\(invalid\|bad\)'; test \$? -eq 1"

# Group structures that overlap one another (or the superblock and the
# descriptors): the mount is refused, naming both, and nothing is written.
fresh
for spec in "0 block_bitmap $(geom 'Inode bitmap')" "0 inode_bitmap 1" \
	    "0 block_bitmap $(( $(geom 'Inode table') + 5 ))" "0 inode_table 30"; do
	fresh
	debugfs -w -R "set_bg $spec" $T/img >/dev/null 2>&1
	cp $T/img $T/orig
	name="overlap_$(echo "$spec" | tr ' ' _)"
	FSCLI_VERBOSE=1 run < <(echo "ls /d")
	check "$name/mount_refused" grep -qx "mount = -22" $T/out
	check "$name/names_the_overlap" grep -q "group 0's .* overlaps group 0's " $T/err
	check "$name/image_untouched" cmp -s $T/img $T/orig
done

# Names that lead to reserved inodes (the resize inode, the bad blocks
# list): refused, as Linux refuses them, so nothing can write or free them.
fresh
printf '%s\n' "ln <7> /res7" "ln <1> /bad1" | debugfs -w -f - $T/img >/dev/null 2>&1
cp $T/img $T/orig
FSCLI_VERBOSE=1 run < <(printf '%s\n' "sha /d/res7" "fill /d/res7 3000 1" "rm /d/res7" "stat /d/bad1" "stat /d/f")
check "reserved_inode/refused" sh -c "grep '^= ' $T/out | head -4 | grep -vqx '= -117'; test \$? -eq 1"
check "reserved_inode/reported" grep -q "inode number 7 out of range or reserved" $T/err
check "reserved_inode/others_fine" sh -c "grep '^= ' $T/out | sed -n 5p | grep -qx '= 0'"
check "reserved_inode/only_superblock_changed" test "$(changed_blocks $T/img $T/orig)" = "1 "

# A directory without "..": moving it to another directory fails before
# anything changes, naming the directory.
fresh
blk=$(debugfs -R "blocks /c" $T/img 2>/dev/null | awk '{print $1}')
patch $T/img $((blk * 1024 + 4)) H 1024	# "." swallows ".."
cp $T/img $T/orig
FSCLI_VERBOSE=1 run < <(printf '%s\n' "mv /d/c /d/a/c" "ls /d/c/..")
check "no_dotdot/rename_EUCLEAN" sh -c "grep '^= ' $T/out | head -1 | grep -qx '= -117'"
check "no_dotdot/lookup_EUCLEAN" sh -c "grep '^= ' $T/out | sed -n 2p | grep -qx '= -117'"
check "no_dotdot/reported" grep -q "directory inode $(debugfs -R 'stat /c' $T/orig 2>/dev/null | sed -n 's/^Inode: \([0-9]*\).*/\1/p') has no \"..\"" $T/err
check "no_dotdot/only_superblock_changed" test "$(changed_blocks $T/img $T/orig)" = "1 "

# Legitimate layouts the metadata zones must not mistake for overlaps:
# sparse_super2 (backups only where s_backup_bgs says), flex_bg, packed
# metadata.  Mount, read, write, and e2fsck finds it clean.
for layout in "sparse_super2:-O sparse_super2" "flex_bg:-O flex_bg -G 16" \
	      "packed_meta:-O flex_bg -E packed_meta_blocks=1"; do
	# shellcheck disable=SC2086
	mkimg $T/img 64M "$S" -b 1024 ${layout#*:}
	run < <(printf '%s\n' "sha /d/big" "fill /d/n 2000000 1")
	check "layout_${layout%%:*}/mounts_reads_writes" sh -c "test \$(grep -cx '= 0' $T/out) -eq 2"
	check "layout_${layout%%:*}/e2fsck_clean" fsck_clean $T/img
done
