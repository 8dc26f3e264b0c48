# Helpers for QEMU scenario scripts (sourced).  A scenario boots the
# kernel with tools/run-qemu, then asserts on the exit status and on the
# serial output, printing one TAP-like line per check for tests/run.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top" || exit 1
logdir=$top/build/test-logs/qemu
mkdir -p "$logdir"

# boot NAME [run-qemu options...]: output in $logdir/NAME.out, status in $rc.
boot() {
	local name=$1
	shift
	out=$logdir/$name.out
	tools/run-qemu "$@" 2>&1 | tr -d '\r' >"$out"
	rc=${PIPESTATUS[0]}
}

ok() { echo "ok - $1"; }
notok() { echo "not ok - $1 # $2"; }

# expect_rc NAME WANT: the last boot exited with status WANT.
expect_rc() {
	if [ "$rc" -eq "$2" ]; then ok "$1"; else notok "$1" "exit $rc, wanted $2 (see $out)"; fi
}

# expect_out NAME REGEX: the last boot's output has a line matching REGEX.
expect_out() {
	if grep -qE -- "$2" "$out"; then ok "$1"; else notok "$1" "no line matching '$2' in $out"; fi
}

# expect_no_out NAME REGEX: ... and has none matching this one.
expect_no_out() {
	if grep -qE -- "$2" "$out"; then notok "$1" "unexpected '$2' in $out"; else ok "$1"; fi
}

# relay_tap: pass on the kernel's own TAP lines from the last boot.
relay_tap() {
	grep -E '^(ok|not ok) ' "$out"
}

# lba_check NAME IMAGE SEED FIRST COUNT [lbapattern options]: every sector
# of [FIRST, FIRST+COUNT) in IMAGE holds the LBA pattern for SEED (what
# stress and bench verify write), checked from the host by tools/lbapattern.
lba_check() {
	local name=$1 img=$2 seed=$3 first=$4 n=$5 why
	shift 5
	if why=$(tools/lbapattern check "$img" --seed "$seed" --lba "$first" --sectors "$n" "$@"); then
		ok "$name"
	else
		notok "$name" "$(echo "$why" | tail -1) ($img)"
	fi
}
