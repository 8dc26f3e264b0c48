# Helpers for the tests/host/*.sh scripts (sourced; not a test itself).
# Builds build/host/fscli (the VFS and ext2 on the host, with ASan and
# UBSan), makes images with mke2fs, and prints TAP lines.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROOT=$PWD
export PATH=$PATH:/usr/sbin:/sbin
FSCLI=$ROOT/build/host/fscli
FS_SRCS="tests/host/fscli.c fs/vfs.c fs/vfs_entry.c fs/namei.c fs/vfsops.c fs/atime.c fs/fillgen.c lib/sha256.c
	lib/strutil.c lib/errstr.c lib/sort.c lib/crc32c.c $(ls fs/ext2/*.c fs/fat/*.c)
	$(ls fs/jbd2/*.c | grep -v /io.c) tests/unit/fakes/jbd2_io_fake.c
	tests/unit/fakes/buffer_file.c tests/unit/fakes/slab_fake.c
	tests/unit/fakes/wallclock_fake.c tests/unit/host/*.c"
HCFLAGS="-std=gnu11 -g -O1 -I. -DHOST_TEST -Wall -Wextra -Werror -Wno-unused-parameter
	-fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export E2FSPROGS_FAKE_TIME=1700000000 SOURCE_DATE_EPOCH=1700000000

build_fscli() {
	mkdir -p build/host
	local newest
	newest=$(ls -t $FS_SRCS fs/*.h fs/ext2/*.h fs/fat/*.h fs/jbd2/*.h lib/*.h tests/unit/fakes/*.h 2>/dev/null | head -1)
	if [ ! -x "$FSCLI" ] || [ "$newest" -nt "$FSCLI" ]; then
		# shellcheck disable=SC2086
		cc $HCFLAGS -o "$FSCLI" $FS_SRCS || { echo "not ok - build fscli"; exit 1; }
	fi
}

# Images and models in memory when possible: the tests write a lot and need no durability.
[ -w /dev/shm ] && export TMPDIR=/dev/shm
T=$(mktemp -d "${TMPDIR:-/tmp}/fstest.XXXXXX")
trap 'rm -rf "$T"' EXIT

ok() { echo "ok - $1"; }
notok() { echo "not ok - $1 # $2"; }
check() {	# check NAME COMMAND...: ok if the command succeeds
	local name=$1
	shift
	if "$@" >"$T/check.out" 2>&1; then ok "$name"; else notok "$name" "$(tail -3 "$T/check.out" | tr '\n' ' ')"; fi
}

# mkimg IMG SIZE SRCDIR MKE2FS-OPTIONS...: a reproducible ext2 image
mkimg() {
	local img=$1 size=$2 src=$3
	shift 3
	rm -f "$img"
	mke2fs -q -F -t ext2 -m 0 -U 01234567-89ab-cdef-0123-456789abcdef \
		-E hash_seed=01234567-89ab-cdef-0123-456789abcdef -L test \
		${src:+-d "$src"} "$@" "$img" "$size" >/dev/null 2>&1
}

# fsck IMG[?offset=N]: e2fsck -fn must say clean
fsck_clean() {
	e2fsck -fn "$1" >"$T/fsck.out" 2>&1 || { cat "$T/fsck.out"; return 1; }
}

# The fuzz scripts' run count: FUZZ_SECS=N runs for N seconds (make fuzz),
# else FUZZ_RUNS mutated inputs (default $1).  Sets $limit (libFuzzer's
# flag) and $what (for the check's name).
fuzz_limit() {
	if [ -n "${FUZZ_SECS:-}" ]; then
		limit="-max_total_time=$FUZZ_SECS" what="${FUZZ_SECS}s"
	else
		limit="-runs=${FUZZ_RUNS:-$1}" what="${FUZZ_RUNS:-$1}_runs"
	fi
}

# The VFS and ext2 driver (ext2, ext3, ext4) as the fuzz targets link them.
FUZZ_EXT2_SRCS="fs/vfs.c fs/vfs_entry.c fs/namei.c fs/vfsops.c fs/atime.c $(ls fs/ext2/*.c)
	$(ls fs/jbd2/*.c | grep -v /io.c) tests/unit/fakes/jbd2_io_fake.c
	lib/strutil.c lib/errstr.c lib/sort.c lib/crc32c.c tests/unit/fakes/buffer_file.c
	tests/unit/fakes/slab_fake.c tests/unit/fakes/wallclock_fake.c tests/unit/host/kernel_shim.c"

# fuzz_run NAME CHECK MAX_LEN SOURCES...: build build/host/fuzz_NAME with
# libFuzzer and run it over $T/corpus for $limit (check "fuzz/CHECK_$what");
# a crash leaves its input in build/fuzz/NAME/.  Without the libFuzzer
# runtime (Debian: libclang-rt-14-dev) the corpus is replayed through the
# same target with a plain main instead.
fuzz_run() {
	local name=$1 check=$2 maxlen=$3
	shift 3
	mkdir -p build/host build/fuzz/$name
	if clang -g -O1 -I. -DHOST_TEST -fsanitize=fuzzer,address,undefined \
		-o build/host/fuzz_$name "$@" >$T/build.log 2>&1; then
		ok "fuzz/build_libfuzzer"
		check "fuzz/${check}_$what" build/host/fuzz_$name "$limit" -timeout=10 \
			-rss_limit_mb=2048 -max_len=$maxlen -artifact_prefix=build/fuzz/$name/ $T/corpus
		return
	fi
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
	cc $HCFLAGS -o build/host/fuzz_${name}_replay "$@" $T/main.c || notok "fuzz/build_replay" "cc failed"
	check "fuzz/replay_corpus" build/host/fuzz_${name}_replay $T/corpus/*
}
