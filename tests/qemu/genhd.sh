#!/usr/bin/env bash
# The gendisk registry in the kernel: its self-test on a RAM disk (names,
# PARTUUID lookup, the writable= default, claims, remap bounds, removal),
# and the shell commands answering with no disk driver loaded.
. "$(dirname "$0")/lib.bash"

boot genhd-selftest --timeout 60 --cmdline 'selftest=block/genhd/*'
expect_out "genhd/selftests-ran" '^selftest: [1-9][0-9]* passed, 0 failed'
relay_tap
expect_rc "genhd/selftest-verdict" 0

boot genhd-shell --timeout 60 --cmdline 'run="lsblk; blkid; part nosuch"'
expect_out "genhd/lsblk-header" '^NAME +MAJ:MIN +SIZE +SECTORS +RO +TYPE +MODEL/NAME'
expect_out "genhd/part-unknown" '^part: nosuch: no such block device'
