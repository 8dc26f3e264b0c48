#!/usr/bin/env bash
# DISCARD and WRITE ZEROES end to end on the memory disks: blkdiscard and
# blkzeroout through the sync helper, the block core (split, trace) and
# the ram (request_fn) and mem (make_request) drivers, which zero the
# range; the bytes around it stay; and the refusals: a device not in
# writable=, a range off sectors or past the end.
. "$(dirname "$0")/lib.bash"

# bench verify leaves a pattern in the first MiBs; the range goes to zero.
boot discard-ram --timeout 60 --cmdline 'ram.count=1 ram.size=16M mem.count=1 mem.size=16M writable=ram0,mem0,nullb0 run="blkdiscard nullb0 0 1G; bench ram0 verify:mib=8:bs=1M; blkdiscard ram0 1M 2M; hexdump ram0 1048560 32; hexdump ram0 3145712 32; blktrace ram0 on; blkzeroout ram0 8K 4K; blktrace ram0; bench mem0 verify:mib=4:bs=1M; blkzeroout mem0 4096 4096; hexdump mem0 4080 32; blkdiscard mem0"'
expect_rc "discard/ram-run" 0
expect_out "discard/blkdiscard-ok" '^blkdiscard: ram0: 2097152 bytes at 1048576$'
# The last 16 bytes before the range keep data; the range reads as zeroes.
expect_no_out "discard/before-kept" '^000ffff0  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 '
expect_out "discard/range-zero-start" '^00100000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 '
expect_out "discard/range-zero-end" '^002ffff0  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 '
expect_no_out "discard/after-kept" '^00300000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 '
expect_out "discard/blkzeroout-ok" '^blkzeroout: ram0: 4096 bytes at 8192$'
expect_out "discard/trace-shows-zeroes" ' Q  Z 16 \+ 8 '
expect_out "discard/mem-zeroout" '^00001000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 '
expect_no_out "discard/mem-before-kept" '^00000ff0  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 '
expect_out "discard/mem-whole" '^blkdiscard: mem0: 16777216 bytes at 0$'
expect_out "discard/nullb-accepts" '^blkdiscard: nullb0: 1073741824 bytes at 0$'

# Refusals: each prints its reason and fails the run.
boot discard-refused --timeout 60 --cmdline 'ram.count=2 ram.size=16M writable=ram0 run="blkdiscard ram1; blkdiscard ram0 1000 512; blkdiscard ram0 15M 2M; blkzeroout ram0 x"'
expect_rc "discard/refusals-fail-the-run" 1
expect_out "discard/read-only" '^blkdiscard: ram1: read-only \(name it in writable= to allow this\)$'
expect_out "discard/unaligned" '^blkdiscard: OFF and LEN must be whole sectors$'
expect_out "discard/past-end" '^blkdiscard: ram0: range past the end \(16777216 bytes\)$'
expect_out "discard/bad-args" '^usage: blkzeroout DEV \[OFF LEN\]$'
