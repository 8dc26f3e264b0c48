#!/usr/bin/env bash
# fs/fillgen.c (the kernel's `fill` content) and tools/fillgen.py (the host's
# copy of the generator) must produce the same bytes, at any offset.
source "$(dirname "$0")/common.bash"
cat > $T/gen.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include "fs/fillgen.h"
int main(int argc, char **argv)
{
	unsigned long long n = strtoull(argv[1], 0, 0), seed = strtoull(argv[2], 0, 0);
	unsigned long long off = strtoull(argv[3], 0, 0);
	static unsigned char buf[1 << 16];

	while (n) {
		size_t k = n < sizeof(buf) ? n : sizeof(buf);

		fillgen(seed, off, buf, k);
		fwrite(buf, 1, k, stdout);
		n -= k;
		off += k;
	}
	return 0;
}
C
# shellcheck disable=SC2086
cc $HCFLAGS -o $T/gen $T/gen.c fs/fillgen.c || { notok "fillgen/build" "cc failed"; exit 1; }
for args in "0 1 0" "1 1 0" "7 5 3" "4096 0 0" "100000 18446744073709551615 0" \
	    "12345 42 4294967291" "3 9 1099511627775"; do
	set -- $args
	check "fillgen/c_equals_python_n$1_seed$2_off$3" \
		cmp <($T/gen "$1" "$2" "$3") <(python3 tools/fillgen.py "$1" "$2" "$3")
done
