#!/usr/bin/env bash
# ext4 write path against the host's tools.  On images made by mkfs.ext4
# (its defaults, and 1/4 KiB blocks, ^64bit, ^metadata_csum, no journal,
# meta_bg, 128-byte inodes, large_dir), scripts of operations run through
# fscli and, mirrored, on a host directory (the model,
# tests/host/fsmodel.py): every result must match the model's, e2fsck -fn
# must find the image clean, and debugfs must read back exactly the model.
# Then the large cases: a big file whose extent tree our code grows to
# depth >= 2 in fragmented free space, then shrinks and frees; a sparse
# file past 2 TiB; churn in a 10,000-entry htree directory (creates,
# removes, renames, links: the index kept valid or cleared, as e2fsck
# accepts); new files are written with extents; and an inline_data image
# mounted writable stays read-only, changing nothing.
source "$(dirname "$0")/common.bash"
build_fscli

UUID=01234567-89ab-cdef-0123-456789abcdef
mk4() {	# mk4 IMG SIZE SRCDIR OPTIONS...: a reproducible mkfs.ext4 image
	local img=$1 size=$2 src=$3
	shift 3
	rm -f "$img"
	mkfs.ext4 -q -F -U $UUID -E hash_seed=$UUID -L test ${src:+-d "$src"} "$@" \
		"$img" "$size" >"$T/mkfs.out" 2>&1
}

# ext2_write.sh's basic operations, then large files, truncates and a remount.
{ cat tests/host/basic.fsops; cat <<'SCRIPT'
fill /d/big 9000001 7
sha /d/big
pwrite /d/big 5000 dirty-in-the-cache
fill /d/big 300000 8 4096
fill /d/big 100000 9 20000000
sha /d/big
truncate /d/big 7000000
sha /d/big 4095 5000000
truncate /d/big 100
fill /d/big 2000000 10 50000
remount
sha /d/big
sha /d/sparse
mkdir /d/sub
mkdir /d/sub/x
mkdir /d/sub/y
SCRIPT
} > $T/basic
for i in $(seq 1 300); do echo "write /d/sub/x/entry-with-a-long-name-$i $i"; done >> $T/basic
printf '%s\n' "mv /d/sub/x/entry-with-a-long-name-12 /d/sub/renamed" "ln /d/sub/renamed /d/sub/y/hard" \
	"rm /d/sub/x/entry-with-a-long-name-13" "rmdir /d/sub/x" >> $T/basic

for v in "defaults:" "b1k:-b 1024" "b4k:-b 4096" "b4k_no64bit:-b 4096 -O ^64bit" \
	 "b1k_nocsum:-b 1024 -O ^metadata_csum" "b4k_nocsum_no64bit:-b 4096 -O ^metadata_csum,^64bit" \
	 "b4k_nojournal:-b 4096 -O ^has_journal" "b1k_i128:-b 1024 -I 128" \
	 "b1k_meta_bg:-b 1024 -O ^resize_inode,meta_bg" "b4k_large_dir:-b 4096 -O large_dir" \
	 "b1k_csum_seed:-b 1024 -O metadata_csum_seed"; do
	name=${v%%:*}
	# shellcheck disable=SC2086
	mk4 $T/w.img 64M "" ${v#*:} || { notok "$name/mkfs" "$(tail -1 "$T/mkfs.out")"; continue; }
	check "$name/basic_ops_match_model_and_fsck" python3 tests/host/fsmodel.py run $T/w.img $T/basic
	# new files are written with extents (flag 0x80000 in debugfs stat)
	flags=$(debugfs -R "stat /big" $T/w.img 2>/dev/null | sed -n 's/.*Flags: \(0x[0-9a-f]*\).*/\1/p')
	check "$name/new_file_has_extents" test $((${flags:-0} & 0x80000)) -ne 0
done

for seed in 1 2; do
	mk4 $T/w.img 64M "" -b 1024
	python3 tests/host/fsmodel.py random $seed 3000 > $T/rand
	check "random_b1k_seed$seed/3000_ops_match_model_and_fsck" \
		python3 tests/host/fsmodel.py run $T/w.img $T/rand
done
mk4 $T/w.img 128M "" -b 4096
python3 tests/host/fsmodel.py random 3 3000 > $T/rand
check "random_b4k_seed3/3000_ops_match_model_and_fsck" python3 tests/host/fsmodel.py run $T/w.img $T/rand
mk4 $T/w.img 64M "" -b 1024 -O ^metadata_csum,^64bit -g 1024 -G 4
python3 tests/host/fsmodel.py random 4 3000 > $T/rand
check "random_nocsum_flexbg4_seed4/3000_ops_match_model_and_fsck" \
	python3 tests/host/fsmodel.py run $T/w.img $T/rand

# A deep extent tree grown by our code: 2400 one-block files made by
# mkfs, every other one removed through fscli, then a 1.2 MB file written
# through fscli must land in the ~1200 holes (depth >= 2), read back by
# debugfs; then shrunk (truncate) and removed: clean, blocks returned.
F=$T/frag
mkdir -p $F
for i in $(seq 1 2400); do printf 'x%.0s' {1..1000} > $F/f$i; done
for v in "b1k:-b 1024" "b1k_nocsum:-b 1024 -O ^metadata_csum,^64bit"; do
	name=deep_extents_${v%%:*}
	# shellcheck disable=SC2086
	mk4 $T/d.img 4M "$F" -O ^has_journal -N 2600 ${v#*:} ||
		{ notok "$name/mkfs" "$(tail -1 "$T/mkfs.out")"; continue; }
	{ for i in $(seq 1 2 2400); do echo "rm /d/f$i"; done; echo "fill /d/big 1200000 5"; } |
		"$FSCLI" $T/d.img > $T/out 2>&1
	check "$name/fscli_clean_exit" test $? -eq 0
	check "$name/all_ops_succeeded" test "$(grep -c '^= 0$' $T/out)" -eq 1201
	depth=$(debugfs -R "ex /big" $T/d.img 2>/dev/null | sed -n '2s|^ *[0-9]*/ *\([0-9]*\).*|\1|p')
	check "$name/depth_ge_2" test "${depth:-0}" -ge 2
	check "$name/fsck_clean" fsck_clean $T/d.img
	check "$name/debugfs_reads_model" cmp <(debugfs -R "cat /big" $T/d.img 2>/dev/null) \
		<(python3 tools/fillgen.py 1200000 5)
	check "$name/survivors_intact" cmp <(debugfs -R "cat /f2400" $T/d.img 2>/dev/null) $F/f2400
	free0=$(dumpe2fs -h $T/d.img 2>/dev/null | sed -n 's/^Free blocks: *//p')
	printf '%s\n' "truncate /d/big 300000" "sha /d/big" | "$FSCLI" $T/d.img > $T/out 2>&1
	check "$name/truncate_fsck_clean" fsck_clean $T/d.img
	check "$name/truncate_reads_prefix" cmp <(debugfs -R "cat /big" $T/d.img 2>/dev/null) \
		<(python3 tools/fillgen.py 300000 5)
	echo "rm /d/big" | "$FSCLI" $T/d.img > $T/out 2>&1
	check "$name/rm_fsck_clean" fsck_clean $T/d.img
	free1=$(dumpe2fs -h $T/d.img 2>/dev/null | sed -n 's/^Free blocks: *//p')
	check "$name/blocks_returned" test "${free1:-0}" -ge $((${free0:-0} + 290))
done

# debugfs bmap and the image bytes as the oracle for one logical block.
block_is() {	# block_is IMG FILE LBLK BSIZE SEED SEQOFF: lblk holds fillgen(SEED) at SEQOFF
	local pb
	pb=$(debugfs -R "bmap $2 $3" "$1" 2>/dev/null)
	[ -n "$pb" ] && [ "$pb" != 0 ] || { echo "no block for $2 $3"; return 1; }
	cmp <(dd if="$1" bs="$4" skip="$pb" count=1 2>/dev/null) \
	    <(python3 tools/fillgen.py "$4" "$5" "$6")
}

# Past 2 TiB on 4 KiB blocks (and on 1 KiB, below the 4 TiB limit there).
for b in 4096 1024; do
	name=over_2TiB_b$b
	mk4 $T/big.img 64M "" -b $b
	at=2748779069440
	printf '%s\n' "fill /d/huge 8192 11 0" "fill /d/huge $b 11 $at" "stat /d/huge" | "$FSCLI" $T/big.img > $T/out 2>&1
	check "$name/fscli_clean_exit" test $? -eq 0
	check "$name/fsck_clean" fsck_clean $T/big.img
	check "$name/size" sh -c "debugfs -R 'stat /huge' $T/big.img 2>/dev/null | grep -q 'Size: $((at + b))\b'"
	check "$name/block_past_2TiB" block_is $T/big.img /huge $((at / b)) $b 11 $at
	check "$name/first_block" block_is $T/big.img /huge 0 $b 11 0
	printf '%s\n' "truncate /d/huge 5000" "rm /d/huge" | "$FSCLI" $T/big.img > $T/out 2>&1
	check "$name/truncate_and_rm_fsck_clean" fsck_clean $T/big.img
done
mk4 $T/big.img 64M "" -b 1024
echo "fill /d/huge 1 1 4398046511104" | "$FSCLI" $T/big.img > $T/out 2>&1
check "b1k_beyond_4TiB_EFBIG" grep -qx -- "= -27" $T/out
check "b1k_beyond_4TiB_fsck_clean" fsck_clean $T/big.img

# Churn in a 10,000-entry htree directory (indexed by e2fsck -D).
H=$T/hsrc
mkdir -p $H/big
for i in $(seq 1 10000); do echo "$i" > $H/big/entry-number-$i; done
for v in "b4k:-b 4096" "b1k:-b 1024" "b1k_nocsum:-b 1024 -O ^metadata_csum" \
	 "b1k_nojournal:-b 1024 -O ^has_journal" "b4k_nojournal:-b 4096 -O ^has_journal"; do
	name=htree_churn_${v%%:*}
	# shellcheck disable=SC2086
	mk4 $T/h.img 128M "$H" -N 16000 ${v#*:} || { notok "$name/mkfs" "$(tail -1 "$T/mkfs.out")"; continue; }
	e2fsck -fyD $T/h.img >/dev/null 2>&1
	{
		for i in $(seq 1 3 10000); do echo "rm /d/big/entry-number-$i"; done
		for i in $(seq 1 2000); do echo "write /d/big/added-name-$i v$i"; done
		for i in $(seq 3 51 10000); do echo "mv /d/big/entry-number-$i /d/big/renamed-$i"; done
		for i in $(seq 2 501 10000); do echo "ln /d/big/entry-number-$i /d/big/link-$i"; done
		echo "mkdir /d/big/subdir"
		echo "mv /d/big/entry-number-5 /d/moved-out"
	} > $T/churn
	"$FSCLI" $T/h.img < $T/churn > $T/out 2>&1
	check "$name/fscli_clean_exit" test $? -eq 0
	check "$name/all_ops_succeeded" test "$(grep -c '^= 0$' $T/out)" -eq "$(wc -l < $T/churn)"
	check "$name/fsck_clean" fsck_clean $T/h.img
	want=$((10000 - 3334 + 2000 + 20 + 1 - 1))	# removed 1 mod 3; renamed 0 mod 3; linked 2 mod 3
	n=$(debugfs -R "ls -l /big" $T/h.img 2>/dev/null | awk 'NF >= 9 && $1 != 0 && $NF != "." && $NF != ".."' | wc -l)
	check "$name/debugfs_count" test "$n" -eq $want
	check "$name/renamed_contents" sh -c "test \"\$(debugfs -R 'cat /big/renamed-9948' $T/h.img 2>/dev/null)\" = 9948"
	check "$name/added_contents" sh -c "test \"\$(debugfs -R 'cat /big/added-name-1999' $T/h.img 2>/dev/null)\" = v1999"
	check "$name/linked_nlink_2" sh -c "debugfs -R 'stat /big/link-503' $T/h.img 2>/dev/null | grep -q 'Links: 2'"
	printf 'stat /d/big/%s\n' entry-number-6 renamed-54 added-name-7 link-9020 | "$FSCLI" -r $T/h.img > $T/out 2>&1
	check "$name/lookups_after_churn" test "$(grep -c '^ino=' $T/out)" -eq 4
done

# inline_data (read only): a writable mount stays read-only, writes fail, nothing changes.
mkdir -p $T/isrc && echo tiny > $T/isrc/tiny
mk4 $T/i.img 16M $T/isrc -O inline_data
cp $T/i.img $T/i.orig
printf '%s\n' "write /d/new x" "df" "cat /d/tiny" | FSCLI_VERBOSE=1 "$FSCLI" $T/i.img > $T/out 2>&1
check "inline_data/write_is_EROFS" grep -qx -- "= -30" $T/out
check "inline_data/df_ro" grep -q ' ro.* type=ext4$' $T/out
check "inline_data/message_names_inline_data" grep -q 'inline_data' $T/out
check "inline_data/reads" grep -qx tiny $T/out
check "inline_data/image_unchanged" cmp -s $T/i.img $T/i.orig
