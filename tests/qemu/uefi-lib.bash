# Helpers for the image scenarios (uefi-*.sh, fbcon-*.sh; sourced after
# lib.bash).
#
# boot_until NAME REGEX TIMEOUT [run-qemu options...]: boot, and stop QEMU
# as soon as the output has a line matching REGEX (the shipped GRUB menu
# boots a shell that waits for a person, so nothing else ends the run).
# Output in $logdir/NAME.out; $rc is 0 when REGEX was seen, else 124.
# If the caller sets on_match to a command, it runs once REGEX is seen,
# while QEMU still runs (to take a screendump), its status in $match_rc.
boot_until() {
	local name=$1 re=$2 limit=$3 pid t=0
	shift 3
	out=$logdir/$name.out
	: >"$out.raw"
	# Its own session (setsid is not forking here: a background job of a
	# script is no group leader), so that QEMU under timeout(1) can be
	# ended by that session's id and nothing else.
	setsid tools/run-qemu --timeout "$limit" "$@" </dev/null >"$out.raw" 2>&1 &
	pid=$!
	while [ $t -lt $((limit * 4)) ]; do
		grep -qaE -- "$re" "$out.raw" && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.25
		t=$((t + 1))
	done
	match_rc=1
	if [ -n "${on_match:-}" ] && grep -qaE -- "$re" "$out.raw"; then
		$on_match
		match_rc=$?
	fi
	pkill -TERM -s $pid 2>/dev/null
	wait $pid 2>/dev/null
	tr -d '\r' <"$out.raw" >"$out"
	rm -f "$out.raw"
	rc=124
	grep -qaE -- "$re" "$out" && rc=0
}
