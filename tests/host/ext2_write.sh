#!/usr/bin/env bash
# ext2 write path against the host's tools.  Scripts of operations run
# through fscli on fresh images and, mirrored, on a host directory (the
# model, tests/host/fsmodel.py): every result must match the model's,
# e2fsck -fn must find the image clean, and debugfs must read back exactly
# the model (contents, symlinks, hard-link groups).  Then the large cases:
# a sparse file past 4 GiB on 4 KiB blocks, triple indirection on 1 KiB
# blocks, a directory of 10,000 entries, an htree directory modified, and
# random operations on meta_bg (the layout of groups of 256 blocks).
source "$(dirname "$0")/common.bash"
build_fscli

# The basic operations, shared with ext4_write.sh.
cp tests/host/basic.fsops $T/basic

for v in "b1k_i128:-b 1024 -I 128" "b1k_i256:-b 1024 -I 256" "b4k_i128:-b 4096 -I 128" \
	 "b4k_i256:-b 4096 -I 256" "b1k_none:-b 1024 -O none" "rev0:-b 1024 -r 0 -O none"; do
	name=${v%%:*}
	# shellcheck disable=SC2086
	mkimg $T/w.img 32M "" ${v#*:}
	check "$name/basic_ops_match_model_and_fsck" python3 tests/host/fsmodel.py run $T/w.img $T/basic
done

for seed in 1 2; do
	mkimg $T/w.img 64M "" -b 1024 -I 128
	python3 tests/host/fsmodel.py random $seed 3000 > $T/rand
	check "random_b1k_seed$seed/3000_ops_match_model_and_fsck" \
		python3 tests/host/fsmodel.py run $T/w.img $T/rand
done
mkimg $T/w.img 128M "" -b 4096 -I 256
python3 tests/host/fsmodel.py random 3 3000 > $T/rand
check "random_b4k_seed3/3000_ops_match_model_and_fsck" python3 tests/host/fsmodel.py run $T/w.img $T/rand
# Groups of 256 blocks: mke2fs spreads the descriptors (meta_bg).
mkimg $T/w.img 64M "" -b 1024 -g 256
python3 tests/host/fsmodel.py random 4 3000 > $T/rand
check "random_meta_bg_seed4/3000_ops_match_model_and_fsck" python3 tests/host/fsmodel.py run $T/w.img $T/rand

# In a logical partition of an MBR disk, with a small buffer cache.
truncate -s 100M $T/mbr.img
printf 'label: dos\nunit: sectors\n\nstart=2048, size=20MiB, type=83\ntype=5\nsize=60MiB, type=83\n' |
	sfdisk -q $T/mbr.img
off=$(sfdisk -J $T/mbr.img | python3 -c 'import json,sys; p=json.load(sys.stdin)["partitiontable"]["partitions"]; print(p[-1]["start"]*512)')
mke2fs -q -F -t ext2 -b 1024 -E offset=$off $T/mbr.img 60M >/dev/null 2>&1
cp $T/mbr.img $T/mbr.orig
python3 tests/host/fsmodel.py random 9 1500 > $T/rand
check "mbr_logical/random_ops_match_model_and_fsck" \
	python3 tests/host/fsmodel.py run "$T/mbr.img?offset=$off" $T/rand
check "mbr_logical/outside_partition_untouched" \
	cmp -n $off $T/mbr.img $T/mbr.orig

# debugfs bmap and the image bytes as the oracle for one logical block.
block_is() {	# block_is IMG FILE LBLK BSIZE SEED SEQOFF: lblk holds fillgen(SEED) at SEQOFF
	local pb
	pb=$(debugfs -R "bmap $2 $3" "$1" 2>/dev/null)
	[ -n "$pb" ] && [ "$pb" != 0 ] || { echo "no block for $2 $3"; return 1; }
	cmp <(dd if="$1" bs="$4" skip="$pb" count=1 2>/dev/null) \
	    <(python3 tools/fillgen.py "$4" "$5" "$6")
}
hole_at() { [ "$(debugfs -R "bmap $2 $3" "$1" 2>/dev/null)" = 0 ]; }
size_is() { debugfs -R "stat $2" "$1" 2>/dev/null | grep -q "Size: $3\b"; }

# Past 4 GiB on 4 KiB blocks (sparse, double and triple indirect).
mkimg $T/big.img 64M "" -b 4096
printf '%s\n' "fill /d/big 4096 11 0" "fill /d/big 4096 11 4294967296" \
	"fill /d/big 4096 11 1099511627776" "stat /d/big" | $FSCLI $T/big.img > $T/out
check "4k_over_4GiB/fscli_clean_exit" test $? -eq 0
check "4k_over_4GiB/fsck_clean" fsck_clean $T/big.img
check "4k_over_4GiB/size" size_is $T/big.img /big $((1099511627776 + 4096))
check "4k_over_4GiB/block_at_4GiB" block_is $T/big.img /big 1048576 4096 11 4294967296
check "4k_over_4GiB/block_at_1TiB_triple" block_is $T/big.img /big 268435456 4096 11 1099511627776
check "4k_over_4GiB/hole_between" hole_at $T/big.img /big 5000
check "4k_over_4GiB/large_file_feature" sh -c "dumpe2fs -h $T/big.img 2>/dev/null | grep -q large_file"
echo "fill /d/big 1 1 8796093022208" | $FSCLI $T/big.img > $T/out
check "4k_over_4GiB/beyond_max_size_EFBIG" grep -qx -- "= -27" $T/out
free0=$(dumpe2fs -h $T/big.img 2>/dev/null | sed -n 's/^Free blocks: *//p')
printf '%s\n' "truncate /d/big 4000" "rm /d/big" | $FSCLI $T/big.img > $T/out
check "4k_over_4GiB/truncate_and_rm_fsck_clean" fsck_clean $T/big.img
free1=$(dumpe2fs -h $T/big.img 2>/dev/null | sed -n 's/^Free blocks: *//p')
check "4k_over_4GiB/blocks_returned" test "$free1" -gt "$free0"

# Triple indirection on 1 KiB blocks: block 12 + 256 + 65536 and beyond.
mkimg $T/tind.img 32M "" -b 1024
tind=$((12 + 256 + 65536))
printf '%s\n' "fill /d/t 3000 21 $(((tind - 1) * 1024))" "fill /d/t 1024 21 $(( (tind + 70000) * 1024))" |
	$FSCLI $T/tind.img > $T/out
check "1k_triple/fscli_clean_exit" test $? -eq 0
check "1k_triple/fsck_clean" fsck_clean $T/tind.img
check "1k_triple/first_triple_block" block_is $T/tind.img /t $tind 1024 21 $((tind * 1024))
check "1k_triple/far_triple_block" block_is $T/tind.img /t $((tind + 70000)) 1024 21 $(((tind + 70000) * 1024))
check "1k_triple/last_double_block" block_is $T/tind.img /t $((tind - 1)) 1024 21 $(((tind - 1) * 1024))
echo "truncate /d/t $((tind * 1024 + 10))" | $FSCLI $T/tind.img > $T/out
check "1k_triple/truncate_into_triple_fsck_clean" fsck_clean $T/tind.img
check "1k_triple/truncated_tail_is_hole" hole_at $T/tind.img /t $((tind + 70000))

# A directory of 10,000 entries, then half of them removed.
mkimg $T/dir.img 64M "" -b 1024 -I 128 -N 12000
printf '%s\n' "mkdir /d/many" "touchn /d/many 10000" | $FSCLI $T/dir.img > $T/out
check "dir_10000/fscli_clean_exit" test $? -eq 0
check "dir_10000/fsck_clean" fsck_clean $T/dir.img
n=$(debugfs -R "ls -l /many" $T/dir.img 2>/dev/null | grep -v '^ *0 ' | grep -c ' entry-[0-9]*$')
check "dir_10000/debugfs_sees_10000" test "$n" -eq 10000
for i in $(seq 0 2 9999); do printf 'rm /d/many/entry-%06d\n' $i; done | $FSCLI $T/dir.img > $T/out
check "dir_10000/rm_half_fsck_clean" fsck_clean $T/dir.img
n=$(debugfs -R "ls -l /many" $T/dir.img 2>/dev/null | grep -v '^ *0 ' | grep -c ' entry-[0-9]*$')
check "dir_10000/debugfs_sees_5000" test "$n" -eq 5000

# An htree directory (made by e2fsck -D) modified: the index kept valid, clean.
mkdir -p $T/hsrc/h
for i in $(seq 1 600); do echo $i > $T/hsrc/h/name-number-$i; done
mkimg $T/h.img 32M $T/hsrc -b 1024
e2fsck -fyD $T/h.img >/dev/null 2>&1
printf '%s\n' "write /d/h/added x" "rm /d/h/name-number-17" "mv /d/h/name-number-18 /d/h/renamed" |
	$FSCLI $T/h.img > $T/out
check "htree_modify/fsck_clean" fsck_clean $T/h.img
check "htree_modify/index_kept" sh -c "debugfs -R 'stat /h' $T/h.img 2>/dev/null | grep -q 'Flags: 0x1000'"
check "htree_modify/contents" sh -c "test \"\$(debugfs -R 'cat /h/renamed' $T/h.img 2>/dev/null)\" = 18"
