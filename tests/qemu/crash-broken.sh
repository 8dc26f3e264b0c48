#!/usr/bin/env bash
# The power-cut simulator can fail: a run whose flushes never reach the
# disk (the recorder's dropflush option, a cache that lies about FLUSH and
# FUA) must be caught -- crash states where synced files or directories
# are missing or hold other data -- and tools/crashsim must say so and
# exit non-zero.
. "$(dirname "$0")/lib.bash"

out=$logdir/crash-broken-dropflush.out
tools/crashtest --dir "$logdir/crash-broken-dropflush" --fs ext2 --bus ahci --seed 5 --ops 80 \
	--states 60 --dropflush >"$out" 2>&1
rc=$?
expect_rc "crash-broken/dropflush-fails" 1
expect_out "crash-broken/dropflush-log-has-no-flushes" '^crashsim: ext2, [0-9]+ log entries, 1 FLUSH/FUA points'
expect_out "crash-broken/dropflush-states-fail" '^crash states: 60 checked, [1-9][0-9]* failed$'
expect_out "crash-broken/dropflush-names-a-lost-promise" '^FAILED: .*synced (file|directory) .*(missing|promised)'
