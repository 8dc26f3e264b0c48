#!/usr/bin/env bash
# The ext4 fuzz target: tests/fuzz/fuzz_ext2.c (one driver mounts ext2,
# ext3 and ext4) built with libFuzzer as build/host/fuzz_ext4 and run
# from its own seed corpus of small mkfs.ext4 images: 1 and 4 KiB blocks,
# metadata_csum or crc16 descriptors (^metadata_csum), ^64bit, a journal,
# inline_data, an htree directory, a depth>=2 extent tree, sparse and
# uninitialized extents.  Mutated inputs must give a clear error or a
# clean mount: no crash, no sanitizer report, no leaked buffer or
# allocation, nothing written to the boot block or past the filesystem's
# end (the target aborts on each).  Without the libFuzzer runtime the
# corpus is replayed through the same target with a plain main instead.
# FUZZ_RUNS sets the number of mutated inputs (default 2000); FUZZ_SECS=N
# runs for N seconds instead (for `make fuzz`).  A crash leaves its input
# in build/fuzz/ext4/.
source "$(dirname "$0")/common.bash"
fuzz_limit 2000
UUID=01234567-89ab-cdef-0123-456789abcdef
mk4() {	# mk4 IMG SIZE SRCDIR OPTIONS...
	local img=$1 size=$2 src=$3
	shift 3
	mkfs.ext4 -q -F -U $UUID -E hash_seed=$UUID ${src:+-d "$src"} "$@" "$img" "$size" >/dev/null 2>&1
}
mkdir -p build/host $T/corpus $T/src/d/e $T/src/h
echo hi > $T/src/d/file
python3 tools/fillgen.py 20000 3 > $T/src/big
truncate -s 300000 $T/src/sparse && echo x >> $T/src/sparse
ln -s d/file $T/src/sym
ln -s "$(printf 'p/%.0s' {1..40})" $T/src/slow
for i in $(seq 1 150); do echo $i > $T/src/h/name-$i; done
i=0
for opts in "-b 1024 -O ^has_journal" "-b 1024 -O ^has_journal,^metadata_csum" \
	    "-b 1024 -O ^has_journal,^64bit" "-b 4096 -O ^has_journal" "-b 1024 -J size=1" \
	    "-b 1024 -O ^has_journal,inline_data" "-b 1024 -I 128 -O ^has_journal,^metadata_csum,^64bit"; do
	# shellcheck disable=SC2086
	mk4 $T/corpus/seed$i 1M "$T/src" -N 200 $opts
	e2fsck -fyD $T/corpus/seed$i >/dev/null 2>&1
	i=$((i + 1))
done
printf '%s\n' "write /dev/null u" "fallocate /u 0 20" "sif /u size 20000" |
	debugfs -w -f - $T/corpus/seed0 >/dev/null 2>&1
# A depth>=2 extent tree: one-block files, every other removed, a big file written.
mkdir -p $T/frag
for k in $(seq 1 2400); do printf 'x%.0s' {1..1000} > $T/frag/f$k; done
mk4 $T/corpus/seed$i 4M $T/frag -b 1024 -O ^has_journal -N 2600
python3 tools/fillgen.py 1200000 4 > $T/big2
{ for k in $(seq 1 2 2400); do echo "rm /f$k"; done; echo "write $T/big2 big2"; } |
	debugfs -w -f - $T/corpus/seed$i >/dev/null 2>&1
depth=$(debugfs -R "ex /big2" $T/corpus/seed$i 2>/dev/null | sed -n '2s|^ *[0-9]*/ *\([0-9]*\).*|\1|p')
check "fuzz/seed_deep_extent_tree" test "${depth:-0}" -ge 2
check "fuzz/seed_corpus_made" test "$(ls $T/corpus | wc -l)" -eq 8

# shellcheck disable=SC2086
fuzz_run ext4 libfuzzer $((4096 * 1024)) tests/fuzz/fuzz_ext2.c $FUZZ_EXT2_SRCS
