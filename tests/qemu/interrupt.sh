#!/usr/bin/env bash
# Long commands: a progress line every few seconds when nobody types, and
# Ctrl-C stopping a running bench cleanly (the command fails, the shell and
# the device go on working).
. "$(dirname "$0")/lib.bash"

boot progress --timeout 120 --cmdline 'run="bench nullb0 randread:qd=1:bs=4K:secs=6"'
expect_rc "progress/bench-ran" 0
expect_out "progress/periodic-line" '^randread: [0-9]+ MiB, [0-9]+\.[0-9] MiB/s$'

# ctrl_c NAME INIT PROGRESS_RE: boot with init=INIT, wait for a progress
# line matching PROGRESS_RE, then press Ctrl-C on the keyboard (QEMU's
# sendkey); the output goes to $out, the exit status to $rc.
ctrl_c() {
	local name=$1 init=$2 re=$3 sock=$logdir/$1.mon qpid
	out=$logdir/$name.out
	rm -f "$sock"
	# QEMU writes the file itself, unbuffered, so the wait below sees lines as
	# they come; the carriage returns go afterwards.
	tools/run-qemu --timeout 120 --cmdline "$init" \
		-- -monitor "unix:$sock,server=on,wait=off" </dev/null >"$out.raw" 2>&1 &
	qpid=$!
	for _ in $(seq 1 600); do	# bounded wait for the first progress line
		grep -qE "$re" "$out.raw" && break
		sleep 0.1
	done
	python3 - "$sock" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.settimeout(10)
buf = b""
while buf.count(b"(qemu)") < 1:     # the monitor's first prompt
    buf += s.recv(4096)
s.sendall(b"sendkey ctrl-c\n")
while buf.count(b"(qemu)") < 2:     # its prompt again: the key went in
    buf += s.recv(4096)
s.close()
PY
	wait $qpid
	rc=$?
	tr -d '\r' <"$out.raw" >"$out"
}

# Ctrl-C while a long bench runs from init=, once its first progress line
# is out: the bench stops and says so, prints its partial result and
# fails; the commands after it still run.
ctrl_c interrupt 'init="bench nullb0 randread:qd=1:bs=4K:secs=60; bench nullb0 randread:qd=1:bs=4K:ios=100; poweroff"' \
	'^randread: [0-9]+ MiB'
expect_rc "interrupt/then-poweroff" 0
expect_out "interrupt/ctrl-c-stops" '^randread: interrupted$'
expect_out "interrupt/stopped-early" '^BENCH randread qd=1 bs=4K .*secs=([0-9]|[1-4][0-9])\.'
expect_out "interrupt/device-still-works" '^BENCH randread qd=1 bs=4K .*ios=100 '

# The same for stress: the I/O in flight completes and is checked, the
# command reports what it did and fails, the disk works on.
ctrl_c interrupt-stress "ram.count=1 ram.size=16M writable=ram0 init=\"stress ram0 secs=60 span=8; stress ram0 ios=100 span=1 seed=2; poweroff\"" \
	'^stress: [0-9]+ MiB'
expect_rc "interrupt/stress-then-poweroff" 0
expect_out "interrupt/stress-ctrl-c-stops" '^stress: interrupted$'
expect_out "interrupt/stress-stopped-early" '^STRESS ram0 .*seed=1 .*eio=0 bad=0 .*ms=([0-9]{1,4}|[1-4][0-9]{4}) result=STOPPED$'
expect_out "interrupt/stress-device-still-works" '^STRESS ram0 .*seed=2 .*result=PASS$'
