#!/usr/bin/env bash
# ext2 file data in runs (ext2_map_blocks, direct_rw_blocks) against a
# model on the host (tests/host/fsmodel.py): on 1 and 4 KiB blocks, large
# files that cross the indirect, double and (1 KiB) triple indirect
# boundaries, reads of whole and misaligned ranges, sparse files read
# across their holes, small writes left dirty in the cache and then
# overwritten by a large write, and small writes into blocks written
# directly.  Every "sha" the script prints must equal the model's bytes,
# e2fsck -fn must find the image clean, and debugfs must dump exactly
# the model.  Then debugfs stat shows that a large file was laid out in
# long contiguous runs.
source "$(dirname "$0")/common.bash"
build_fscli

cat > $T/runs <<'SCRIPT'
fill /d/big 9000001 7
sha /d/big
sha /d/big 4095 5000000
pwrite /d/big 5000 dirty-in-the-cache
pwrite /d/big 70001 also-dirty
fill /d/big 300000 8 4096
sha /d/big 0 400000
pwrite /d/big 4100 into-a-direct-block
sha /d/big 4000 1000
sha /d/big
fill /d/sparse 5000 9 0
fill /d/sparse 70000 10 70000000
fill /d/sparse 3 11 20000000
sha /d/sparse
sha /d/sparse 4000 30000000
truncate /d/sparse 20000001
fill /d/sparse 100000 12 30000000
sha /d/sparse
fill /d/odd 1048577 13 1023
fill /d/odd 65536 14 1048576
sha /d/odd 1 1100000
sync
fill /d/big 2000000 15 3000000
sha /d/big 2999999 2000002
remount
sha /d/big
sha /d/sparse
sha /d/odd
SCRIPT

for v in "b1k:-b 1024" "b4k:-b 4096" "b4k_i128_none:-b 4096 -I 128 -O none"; do
	name=${v%%:*}
	# shellcheck disable=SC2086
	mkimg $T/r.img 64M "" ${v#*:}
	check "$name/runs_match_model_and_fsck" python3 tests/host/fsmodel.py run $T/r.img $T/runs
done

# Layout: a 16 MiB file written in one go lies in a few long runs, broken
# only by the indirect blocks between them (debugfs: "(0-11):a-b, (IND):c, ...").
mkimg $T/l.img 64M "" -b 4096
echo "fill /d/l 16777216 3" | $FSCLI $T/l.img > $T/out
check "layout/fscli_clean_exit" test $? -eq 0
debugfs -R "stat /l" $T/l.img 2>/dev/null | tr ',' '\n' | grep -c '([0-9]*-[0-9]*):' > $T/nruns
check "layout/at_most_6_data_runs" test "$(cat $T/nruns)" -le 6
check "layout/fsck_clean" fsck_clean $T/l.img
