#!/usr/bin/env bash
# The FAT fuzz target (tests/fuzz/fuzz_fat.c) built with libFuzzer and run
# for a bounded number of inputs from a seed corpus of small images made
# here by mkfs.fat and mtools (FAT12 with 1 and 4 sectors per cluster,
# FAT16, FAT32 with FSInfo; long names, directories, a file spanning
# many clusters).  Without the libFuzzer runtime the corpus is replayed
# through the same target with a plain main instead.  FUZZ_RUNS sets the
# number of mutated inputs (default 200: a
# FAT32 input is a 34 MiB device); FUZZ_SECS=N runs for N seconds
# instead (for `make fuzz`).  A crash leaves its input in build/fuzz/fat/.
source "$(dirname "$0")/common.bash"
export MTOOLS_SKIP_CHECK=1 TZ=UTC
fuzz_limit 200
mkdir -p $T/corpus
SRCS="tests/fuzz/fuzz_fat.c fs/vfs.c fs/vfs_entry.c fs/namei.c fs/vfsops.c fs/atime.c $(ls fs/fat/*.c)
	lib/strutil.c lib/errstr.c lib/sort.c tests/unit/fakes/buffer_file.c tests/unit/fakes/slab_fake.c
	tests/unit/fakes/wallclock_fake.c tests/unit/host/kernel_shim.c"
python3 tools/fillgen.py 20000 3 >$T/big
echo hi >$T/small
i=0
# FAT32 needs 65525 clusters: 33 MiB of 512-byte clusters, larger than a seed may be,
# so its seed is the first 4 MiB (boot sector, FSInfo, FATs, root, files) of one;
# the target pads the device out to the size the BPB says.
for v in "12:1M:1" "12:1M:4" "16:3M:1" "32:34M:1"; do
	IFS=: read -r t size spc <<<"$v"
	img=$T/full$i
	truncate -s "$size" "$img"
	mkfs.fat -F "$t" -s "$spc" -n SEED "$img" >/dev/null 2>&1
	mmd -i "$img" "::/A long directory name" "::/A long directory name/sub"
	mcopy -i "$img" $T/big "::/A long directory name/sub/big file.bin"
	mcopy -i "$img" $T/small ::/SHORT.TXT
	mcopy -i "$img" $T/small "::/lower case.txt"
	head -c $((4 << 20)) "$img" >$T/corpus/seed$i
	i=$((i + 1))
done
check "fuzz/seed_corpus_made" test "$(ls $T/corpus | wc -l)" -eq 4

# shellcheck disable=SC2086
fuzz_run fat fat_libfuzzer $((4 << 20)) $SRCS
