#!/usr/bin/env bash
# The ext2 fuzz target (tests/fuzz/fuzz_ext2.c) built with libFuzzer and
# run for a bounded number of inputs from a seed corpus of small images
# made here by mke2fs (1 and 4 KiB blocks, 128/256-byte inodes, rev 0,
# filetype or not, flex_bg, files, directories, symlinks).  Without the libFuzzer
# runtime (Debian: libclang-rt-14-dev, or the clang package of the
# release), the corpus is replayed through the same target with a plain
# main instead.  FUZZ_RUNS sets the number of mutated inputs (default
# 2000); FUZZ_SECS=N runs for N seconds instead (for `make fuzz`).  A crash
# leaves its input in build/fuzz/ext2/.
source "$(dirname "$0")/common.bash"
fuzz_limit 2000
mkdir -p build/host $T/corpus $T/src/d/e
echo hi > $T/src/d/file
python3 tools/fillgen.py 20000 3 > $T/src/big
ln -s d/file $T/src/sym
ln -s "$(printf 'p/%.0s' {1..40})" $T/src/slow
i=0
for opts in "-b 1024 -I 128" "-b 1024 -I 256" "-b 4096 -I 128" "-b 1024 -O none" \
	    "-b 1024 -r 0 -O none" "-b 2048 -O none,filetype" "-b 1024 -g 256 -O flex_bg -G 4"; do
	# shellcheck disable=SC2086
	mkimg $T/corpus/seed$i 400k "$T/src" $opts -N 32
	i=$((i + 1))
done
check "fuzz/seed_corpus_made" test "$(ls $T/corpus | wc -l)" -eq 7

# shellcheck disable=SC2086
fuzz_run ext2 libfuzzer $((400 * 1024)) tests/fuzz/fuzz_ext2.c $FUZZ_EXT2_SRCS
