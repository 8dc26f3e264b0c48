#!/usr/bin/env bash
# The multi-queue block layer end to end on nullb0 in multi-queue mode,
# memory-backed so that the LBA-stamped stress verifies every sector it
# wrote: its self-tests (each elevator, 1 and 4 hardware queues, inline,
# timer, deferred-work and polled completion), then the shell's stress
# with the elevator switched under load (deadline -> none -> noop -> kyber,
# then kyber holding writes back at max_depth=2), on
# one and on four hardware queues, and a polled queue; and the errors.
. "$(dirname "$0")/lib.bash"

boot mq-selftest --mem 256M --timeout 300 --cmdline 'selftest=block/stress/mq_*'
relay_tap
expect_rc "mq/selftest-verdict" 0

nb='nullb.memory_backed=1 nullb.size=32M writable=nullb0'
boot mq-1hw --mem 256M --timeout 300 --cmdline "$nb nullb.irqmode=1 nullb.hw_queues=1 nullb.depth=32 run=\"elevator nullb0; stress nullb0 ios=6000 qd=32 seed=3 at=2000 during='elevator nullb0 none'; stress nullb0 ios=6000 qd=16 seed=4 at=1000 during='elevator nullb0 noop'; stress nullb0 ios=6000 qd=32 seed=6 at=1000 during='elevator nullb0 kyber'; elevator nullb0 kyber max_depth=2; stress nullb0 ios=4000 qd=32 seed=7; iostat\""
expect_rc "mq/1hw-run" 0
expect_out "mq/1hw-starts-on-deadline" '^nullb0: \[deadline\] kyber noop none$'
expect_out "mq/1hw-switched-to-none" '^nullb0: deadline kyber noop \[none\]$'
expect_out "mq/1hw-switched-to-noop" '^nullb0: deadline kyber \[noop\] none$'
expect_out "mq/1hw-stress-none-pass" '^STRESS nullb0 .*seed=3 .*eio=0 bad=0 maxtags=([2-9]|[1-3][0-9]) .*result=PASS$'
expect_out "mq/1hw-stress-noop-pass" '^STRESS nullb0 .*seed=4 .*eio=0 bad=0 .*result=PASS$'
expect_out "mq/1hw-switched-to-kyber" '^nullb0: deadline \[kyber\] noop none$'
expect_out "mq/1hw-stress-kyber-switch-pass" '^STRESS nullb0 .*seed=6 .*eio=0 bad=0 .*result=PASS$'
expect_out "mq/1hw-stress-kyber-depth2-pass" '^STRESS nullb0 .*seed=7 .*eio=0 bad=0 .*result=PASS$'

boot mq-4hw --mem 256M --timeout 300 --cmdline "$nb nullb.irqmode=2 nullb.hw_queues=4 nullb.depth=16 run=\"elevator nullb0; bench nullb0 randread:qd=32:bs=4K:ios=4000; stress nullb0 ios=6000 qd=32 seed=5 at=2000 during='elevator nullb0 deadline'; elevator nullb0\""
expect_rc "mq/4hw-run" 0
expect_out "mq/4hw-starts-on-none" '^nullb0: deadline kyber noop \[none\]$'
expect_out "mq/4hw-bench-info" '^BENCH info dev=nullb0 .*driver=blk-mq .*queue_depth=4x16 sched=none '
expect_out "mq/4hw-stress-pass" '^STRESS nullb0 .*seed=5 .*eio=0 bad=0 .*result=PASS$'
expect_out "mq/4hw-ends-on-deadline" '^nullb0: \[deadline\] kyber noop none$'

boot mq-poll --mem 256M --timeout 300 --cmdline "$nb nullb.poll=1 nullb.depth=8 run=\"stress nullb0 ios=4000 qd=16 seed=6; bench nullb0 randread:qd=1:bs=4K:ios=2000\""
expect_rc "mq/poll-run" 0
expect_out "mq/poll-stress-pass" '^STRESS nullb0 .*seed=6 .*eio=0 bad=0 .*result=PASS$'
expect_out "mq/poll-bench" '^BENCH randread qd=1 bs=4K .*ios=2000 '

# Errors: an unknown scheduler is named; sq queues have no "none".
boot mq-errors --mem 128M --timeout 60 --cmdline 'ram.count=1 run="elevator nullb0 bogus; elevator ram0 none"'
expect_rc "mq/errors-fail-the-run" 1
expect_out "mq/unknown-elevator" '^elevator: nullb0: no scheduler named bogus$'
expect_out "mq/sq-has-no-none" '^elevator: ram0: no scheduler named none$'
