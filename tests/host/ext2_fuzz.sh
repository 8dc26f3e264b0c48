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
runs=${FUZZ_RUNS:-2000}
if [ -n "${FUZZ_SECS:-}" ]; then
	limit="-max_total_time=$FUZZ_SECS" what="${FUZZ_SECS}s"
else
	limit="-runs=$runs" what="${runs}_runs"
fi
mkdir -p build/fuzz/ext2
SRCS="tests/fuzz/fuzz_ext2.c fs/vfs.c fs/namei.c fs/vfsops.c fs/atime.c $(ls fs/ext2/*.c)
	$(ls fs/jbd2/*.c | grep -v /io.c) tests/unit/fakes/jbd2_io_fake.c
	lib/strutil.c lib/errstr.c lib/sort.c lib/crc32c.c tests/unit/fakes/buffer_file.c tests/unit/fakes/slab_fake.c
	tests/unit/fakes/wallclock_fake.c tests/unit/host/kernel_shim.c"
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
if clang -g -O1 -I. -DHOST_TEST -fsanitize=fuzzer,address,undefined -o build/host/fuzz_ext2 \
	$SRCS >$T/build.log 2>&1; then
	ok "fuzz/build_libfuzzer"
	check "fuzz/libfuzzer_$what" build/host/fuzz_ext2 "$limit" -timeout=10 \
		-rss_limit_mb=2048 -max_len=$((400 * 1024)) -artifact_prefix=build/fuzz/ext2/ $T/corpus
else
	echo "# SKIP libFuzzer runtime missing (libclang-rt-14-dev): replaying the corpus only"
	cat > $T/main.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		static uint8_t buf[4 << 20];
		size_t n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
	}
	return 0;
}
C
	# shellcheck disable=SC2086
	cc $HCFLAGS -o build/host/fuzz_ext2_replay $SRCS $T/main.c || notok "fuzz/build_replay" "cc failed"
	check "fuzz/replay_corpus" build/host/fuzz_ext2_replay $T/corpus/*
fi
