#!/usr/bin/env bash
# The power-cut simulator can fail.  Two deliberately broken runs must be
# caught, tools/crashsim saying so and exiting non-zero:
#  - ext3 with jbd2.broken_commit=1: commit blocks written with FUA but
#    without the flush before them, so a crash can leave a commit block
#    durable over log blocks that are not -- the replay then copies stale
#    blocks home and e2fsck -fn finds the damage;
#  - ext2 under a recorder that drops every FLUSH and FUA (a cache that
#    lies): synced files and directories go missing.
. "$(dirname "$0")/lib.bash"

out=$logdir/crash-broken-commit.out
tools/crashtest --dir "$logdir/crash-broken-commit" --fs ext3 --bus ahci --seed 3 --ops 120 \
	--states 300 --kopt jbd2.broken_commit=1 >"$out" 2>&1
rc=$?
expect_rc "crash-broken/broken-commit-fails" 1
expect_out "crash-broken/broken-commit-ran" '^crashtest: ext3 over ahci, .*options jbd2.broken_commit=1'
expect_out "crash-broken/broken-commit-states-fail" '^crash states: [0-9]+ checked, [1-9][0-9]* failed$'
expect_out "crash-broken/broken-commit-damage-found" '^FAILED: .*(journal replay failed|e2fsck -fn after replay|synced)'

out=$logdir/crash-broken-dropflush.out
tools/crashtest --dir "$logdir/crash-broken-dropflush" --fs ext2 --bus ahci --seed 5 --ops 80 \
	--states 60 --dropflush >"$out" 2>&1
rc=$?
expect_rc "crash-broken/dropflush-fails" 1
expect_out "crash-broken/dropflush-log-has-no-flushes" '^crashsim: ext2, [0-9]+ log entries, 1 FLUSH/FUA points'
expect_out "crash-broken/dropflush-states-fail" '^crash states: 60 checked, [1-9][0-9]* failed$'
expect_out "crash-broken/dropflush-names-a-lost-promise" '^FAILED: .*synced (file|directory) .*(missing|promised)'
