#!/usr/bin/env bash
# ext4 block groups against e2fsprogs: 32- and 64-byte descriptors,
# descriptor checksums (crc16 with uninit_bg, crc32c with metadata_csum),
# bitmap checksums, BLOCK_UNINIT / INODE_UNINIT groups initialised at
# their first allocation, bg_itable_unused, flex_bg, the superblock
# checksum, and the feature gating.  Images come from mkfs.ext4; files
# we write map the ext2 way (no extents yet), so images are made with
# -O ^extent, or for 64bit (which mke2fs only makes with extents) with
# the root and lost+found rewritten as block-mapped by debugfs.
#
# Oracles: e2fsck -fn (group summaries, bitmaps, descriptor checksums,
# uninit flags, itable_unused are all pass 5 / superblock checks),
# dumpe2fs (flags), the model of fsmodel.py, and the image's bytes.  On
# metadata_csum images the inode and directory block checksums are
# other parts' work: until they are merged, fsck_groups ignores exactly
# those two complaints and nothing else.
source "$(dirname "$0")/common.bash"
build_fscli

UUID=01234567-89ab-cdef-0123-456789abcdef
# mk4 IMG SIZE OPTIONS...: a reproducible mkfs.ext4 image
mk4() {
	local img=$1 size=$2
	shift 2
	rm -f "$img"
	mkfs.ext4 -q -F -U $UUID -E hash_seed=$UUID,lazy_itable_init=1 -L test "$@" \
		"$img" "$size" >/dev/null 2>&1
}

# unextent IMG: rewrite the root and lost+found (mke2fs's only files with
# data, each one extent in the inode) as block-mapped, so that our ext2
# block maps can mount an image that has the extent feature.
unextent() {
	local img=$1 ino blocks i cmds=""
	for ino in 2 11; do
		blocks=$(debugfs -R "blocks <$ino>" "$img" 2>/dev/null)
		cmds+="sif <$ino> flags 0"$'\n'
		for i in $(seq 0 14); do cmds+="sif <$ino> block[$i] 0"$'\n'; done
		i=0
		for b in $blocks; do cmds+="sif <$ino> block[$i] $b"$'\n'; i=$((i + 1)); done
	done
	debugfs -w -f - "$img" <<<"$cmds" >/dev/null 2>&1
}

# fsck_groups IMG: e2fsck -fn finds nothing but (metadata_csum only) the
# inode and directory block checksums that are not this part's (inode
# table blocks where most inodes fail their checksum, e2fsck calls garbage).
fsck_groups() {
	e2fsck -fn "$1" >"$T/fsck.out" 2>&1 && return 0
	grep -vE '^(Pass [1-5]|e2fsck [0-9]|Fix\? no|Clear\? no|$)|seems to contain garbage|passes checks, but checksum does not match inode|directory passes checks but fails checksum|directory has no checksum|WARNING: Filesystem still has errors|files .* non-contiguous' \
		"$T/fsck.out" >"$T/fsck.rest"
	[ ! -s "$T/fsck.rest" ] || { cat "$T/fsck.rest"; return 1; }
}

run() {	# run IMG [fscli options] < script: output in $T/out
	local img=$1
	shift
	FSCLI_VERBOSE=1 "$FSCLI" "$@" "$img" >"$T/out" 2>&1
}

uninit_groups() {	# how many groups dumpe2fs flags BLOCK_UNINIT
	dumpe2fs "$1" 2>/dev/null | grep -c 'BLOCK_UNINIT' || true
}

# 1. Whole workloads against the model on the images fully ours
#    (no metadata_csum: inodes and directories carry no checksums).
for v in "gdtcsum_b1k:-b 1024 -O ^extent,^64bit,^metadata_csum,uninit_bg" \
	 "gdtcsum_b4k:-b 4096 -O ^extent,^64bit,^metadata_csum,uninit_bg" \
	 "gdtcsum_noflex:-b 1024 -O ^extent,^64bit,^metadata_csum,uninit_bg,^flex_bg" \
	 "gdtcsum_nojournal:-b 4096 -O ^extent,^64bit,^metadata_csum,uninit_bg,^has_journal"; do
	name=${v%%:*}
	# shellcheck disable=SC2086
	mk4 $T/w.img 64M ${v#*:}
	python3 tests/host/fsmodel.py random 11 1500 > $T/rand
	check "$name/1500_ops_match_model_and_fsck" python3 tests/host/fsmodel.py run $T/w.img $T/rand
done
# 64-byte descriptors with crc16 over all 64 bytes (64bit, gdt_csum)
mk4 $T/w.img 64M -b 4096 -O ^metadata_csum,uninit_bg,^has_journal
unextent $T/w.img
check "64bit_gdtcsum/desc_size_64" grep -q "Group descriptor size: *64" \
	<(dumpe2fs -h $T/w.img 2>/dev/null)
python3 tests/host/fsmodel.py random 12 1500 > $T/rand
check "64bit_gdtcsum/1500_ops_match_model_and_fsck" python3 tests/host/fsmodel.py run $T/w.img $T/rand

# 2. BLOCK_UNINIT and INODE_UNINIT groups taken into use: a big image of
#    many groups, a file that fills several groups, files and
#    directories enough to need more groups' inodes.
cat > $T/big <<'SCRIPT'
fill /d/big 40000000 3
mkdir /d/m
touchn /d/m 2500
mkdir /d/dirs
mkdirs /d/dirs 40
fill /d/dirs/entry-000007/f 100000 4
sha /d/big
df
SCRIPT
# descriptors wider than the struct (s_desc_size 128): bytes past 64 kept, summed
mk4 $T/w.img 64M -b 4096 -E desc_size=128 -O ^metadata_csum,uninit_bg,^has_journal
unextent $T/w.img
check "desc128_gdtcsum/desc_size_128" grep -q "Group descriptor size: *128" \
	<(dumpe2fs -h $T/w.img 2>/dev/null)
python3 tests/host/fsmodel.py random 13 1000 > $T/rand
check "desc128_gdtcsum/1000_ops_match_model_and_fsck" python3 tests/host/fsmodel.py run $T/w.img $T/rand

python3 tools/fillgen.py 40000000 3 > $T/big.ref
refsum=$(sha256sum < $T/big.ref | cut -c1-64)
for v in "b1k_gdt:-b 1024 -O ^extent,^64bit,^metadata_csum,uninit_bg" \
	 "b1k_noflex:-b 1024 -O ^extent,^64bit,^metadata_csum,uninit_bg,^flex_bg" \
	 "b1k_csum:-b 1024 -O ^extent,^64bit" \
	 "b4k_64bit_csum:-b 4096 -g 8192 -O ^has_journal" \
	 "b1k_64bit_csum:-b 1024 -O ^has_journal" \
	 "b4k_flex64_meta_bg:-b 4096 -g 8192 -G 64 -O ^extent,^64bit,^metadata_csum,uninit_bg,meta_bg,^resize_inode"; do
	name=${v%%:*}
	# shellcheck disable=SC2086
	mk4 $T/u.img 512M ${v#*:}
	[[ $name == *64bit* ]] && unextent $T/u.img
	before=$(uninit_groups $T/u.img)
	run $T/u.img < $T/big
	after=$(uninit_groups $T/u.img)
	check "uninit_$name/script_ran" grep -q "type=ext4" $T/out
	check "uninit_$name/all_commands_succeeded" bash -c "! grep -v '^= 0' $T/out | grep -q '^= '"
	check "uninit_$name/block_uninit_groups_taken_into_use ($before -> $after)" \
		test "$after" -lt "$before"
	check "uninit_$name/sha_matches_host" grep -q "$refsum" $T/out
	check "uninit_$name/e2fsck_groups_clean" fsck_groups $T/u.img
	check "uninit_$name/debugfs_reads_the_file" bash -c \
		"debugfs -R 'dump /big $T/big.out' $T/u.img >/dev/null 2>&1 &&
		 cmp $T/big.ref $T/big.out"
done

# 3. The superblock checksum: a mismatch refuses the mount, nothing written.
mk4 $T/c.img 32M -b 1024 -O ^extent,^64bit,^has_journal
printf '\x55' | dd of=$T/c.img bs=1 seek=$((1024 + 1020)) conv=notrunc 2>/dev/null
sum=$(sha256sum < $T/c.img)
echo 'write /d/x y' | run $T/c.img
check "sb_csum/mount_refused" grep -q "^mount = -22" $T/out
check "sb_csum/clear_line" grep -q "superblock checksum mismatch" $T/out
check "sb_csum/image_unchanged" test "$sum" = "$(sha256sum < $T/c.img)"

# 4. A descriptor checksum: reported by group, mounted read-only, nothing written.
for v in "crc32c:-O ^extent,^64bit,^has_journal" \
	 "crc16:-O ^extent,^64bit,^has_journal,^metadata_csum,uninit_bg"; do
	name=${v%%:*}
	# shellcheck disable=SC2086
	mk4 $T/c.img 32M -b 1024 ${v#*:}
	# 1 KiB blocks: the table is block 2; group 1's bg_checksum at 32 + 0x1E
	printf '\xAA\x55' | dd of=$T/c.img bs=1 seek=$((2048 + 32 + 30)) conv=notrunc 2>/dev/null
	sum=$(sha256sum < $T/c.img)
	printf 'df\nwrite /d/x y\n' | run $T/c.img
	check "gd_csum_$name/group_named" grep -q "group 1: descriptor checksum mismatch" $T/out
	check "gd_csum_$name/mounted_read_only" grep -q "^bsize=.* ro .*type=ext4" $T/out
	check "gd_csum_$name/write_refused" grep -q "^= -30" $T/out
	check "gd_csum_$name/image_unchanged" test "$sum" = "$(sha256sum < $T/c.img)"
done

# 5. A block bitmap checksum: reported, the group is not allocated from,
#    its bitmap never written; the file lands in another group.
mk4 $T/c.img 32M -b 1024 -O ^extent,^64bit,^has_journal,^flex_bg
bb=$(dumpe2fs $T/c.img 2>/dev/null | sed -n 's/^ *Block bitmap at \([0-9]*\).*/\1/p' | head -1)
# the last bitmap byte of group 0: free blocks, now marked used
printf '\xff' | dd of=$T/c.img bs=1 seek=$((bb * 1024 + 1023)) conv=notrunc 2>/dev/null
dd if=$T/c.img bs=1024 skip="$bb" count=1 2>/dev/null > $T/bb.before
printf 'fill /d/f 20000 5\nsha /d/f\n' | run $T/c.img
check "bitmap_csum/group_named" grep -q "group 0: block bitmap (block $bb) checksum mismatch" $T/out
check "bitmap_csum/file_written" bash -c "! grep -q '^= -' $T/out"
check "bitmap_csum/bitmap_not_written" cmp $T/bb.before \
	<(dd if=$T/c.img bs=1024 skip="$bb" count=1 2>/dev/null)
check "bitmap_csum/file_outside_group_0" bash -c \
	"debugfs -R 'blocks /f' $T/c.img 2>/dev/null | tr ' ' '\n' | grep . |
	 awk '\$1 <= 8192 { bad = 1 } END { exit bad }'"

# 6. Feature gating: named refusals and read-only mounts.
mk4 $T/c.img 32M -b 1024 -O ^extent,^64bit,^has_journal
debugfs -w -R "feature casefold" $T/c.img >/dev/null 2>&1
echo df | run $T/c.img
check "gating/casefold_refused_by_name" grep -q "unsupported features: casefold; refusing" $T/out
mk4 $T/c.img 32M -b 1024 -O ^extent,^64bit,^has_journal,quota
echo 'write /d/x y' | run $T/c.img
check "gating/quota_read_only_by_name" grep -q "cannot write: quota; mounting read-only" $T/out
check "gating/quota_write_refused" grep -q "^= -30" $T/out
mk4 $T/c.img 32M -b 1024 -O ^extent,^64bit,^has_journal,inline_data
echo df | run $T/c.img
check "gating/inline_data_read_only_by_name" grep -q "cannot write: inline_data; mounting" $T/out
mk4 $T/c.img 32M -b 1024 -O ^extent,^64bit,^has_journal,^metadata_csum
echo df | run $T/c.img
check "gating/ext4_features_type_ext4" grep -q "^bsize=.*type=ext4" $T/out
mkimg $T/c.img 32M "" -b 1024
echo df | run $T/c.img
check "gating/plain_ext2_type_ext2" grep -q "^bsize=.*type=ext2$" $T/out

# 7. An inode table mke2fs left unwritten (lazy_itable_init, no
#    ITABLE_ZEROED): garbage there must not become a new inode's contents.
mk4 $T/z.img 32M -b 1024 -O ^extent,^64bit,^metadata_csum,uninit_bg,^has_journal
it=$(dumpe2fs $T/z.img 2>/dev/null | sed -n '/^Group 1:/,/^Group 2:/s/^ *Inode table at \([0-9]*\)-.*/\1/p')
check "itable_garbage/group1_not_zeroed" bash -c \
	"dumpe2fs $T/z.img 2>/dev/null | grep '^Group 1:' | grep -v ITABLE_ZEROED | grep -q INODE_UNINIT"
python3 -c 'import sys; sys.stdout.buffer.write(b"\xab" * 65536)' |
	dd of=$T/z.img bs=1024 seek="$it" conv=notrunc 2>/dev/null
echo 'touchn /d 2100' | run $T/z.img
check "itable_garbage/files_created" bash -c "! grep -q '^= -' $T/out"
check "itable_garbage/e2fsck_clean" fsck_clean $T/z.img
check "itable_garbage/itable_unused_shrunk" bash -c \
	"dumpe2fs $T/z.img 2>/dev/null | sed -n '/^Group 1:/,/^Group 2:/p' | grep -q ' 1985 unused inodes'"

# 8. Directory placement over flex groups (16 groups each here): top-level
#    directories spread over different flex groups, subdirectories stay
#    in their parent's.
mk4 $T/o.img 512M -b 1024 -O ^extent,^64bit,^metadata_csum,uninit_bg,^has_journal
printf 'mkdir /d/a\nmkdir /d/b\nmkdir /d/c\nmkdir /d/a/s1\nmkdir /d/a/s1/s2\nmkdir /d/b/s3\n' |
	run $T/o.img
ipg=$(dumpe2fs -h $T/o.img 2>/dev/null | sed -n 's/^Inodes per group: *//p')
flexof() {	# the flex group of the inode at path $1
	local ino
	ino=$(debugfs -R "stat /$1" $T/o.img 2>/dev/null | sed -n 's/^Inode: \([0-9]*\).*/\1/p')
	echo $(((ino - 1) / ipg / 16))
}
check "placement/top_level_spread" test "$(for p in a b c; do flexof $p; done | sort -u | wc -l)" -eq 3
check "placement/subdirs_near_parent" test "$(flexof a/s1)$(flexof a/s1/s2)$(flexof b/s3)" = \
	"$(flexof a)$(flexof a)$(flexof b)"
check "placement/e2fsck_clean" fsck_clean $T/o.img
