#!/usr/bin/env bash
# The power-cut simulator, short run: the seeded crashload workload on a
# small filesystem behind the write recorder (logw0), then tools/crashsim
# checks at least 100 crash states of each log (every FLUSH/FUA prefix
# plus random subsets, reorderings and torn writes of what the cache
# still held).  ext3 over AHCI and over a RAM disk: the journal replays
# and e2fsck -fn is clean, every fsync/sync promise kept.  ext2 over
# AHCI: after sync nothing synced is lost, e2fsck -fy repairs the rest.
. "$(dirname "$0")/lib.bash"

# crash_run NAME [tools/crashtest options]: the run must pass with 0 failures.
crash_run() {
	local name=$1 res
	shift
	out=$logdir/${name//\//-}.out
	tools/crashtest --dir "$logdir/${name//\//-}" "$@" >"$out" 2>&1
	rc=$?
	expect_rc "$name/passes" 0
	res=$(grep -E '^crash states: [0-9]+ checked, [0-9]+ failed$' "$out")
	echo "# $name: $res"
	expect_out "$name/all-states-checked" '^crash states: [0-9]{3,} checked, 0 failed$'
	expect_out "$name/log-complete" '^logw: logw0: [0-9]+ entries, .* lost 0, errors 0, '
	# On AHCI the disk image is the host's too: the whole log must replay to it.
	[ "${name%ahci}" = "$name" ] ||
		expect_out "$name/log-replays-to-disk" '^final image: the log replays to the disk'
}

crash_run crash/ext3-ahci --fs ext3 --bus ahci --seed 11 --ops 100 --states 100
crash_run crash/ext3-ram --fs ext3 --bus ram --seed 12 --ops 100 --states 100
crash_run crash/ext2-ahci --fs ext2 --bus ahci --seed 13 --ops 100 --states 100
