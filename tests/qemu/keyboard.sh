#!/usr/bin/env bash
# The PS/2 keyboard: keys pressed through QEMU's monitor (sendkey) reach
# the shell like typed serial input, shift and ctrl included.
. "$(dirname "$0")/lib.bash"

sock=$logdir/keyboard.mon
rm -f "$sock"
out=$logdir/keyboard.out
tools/run-qemu --timeout 60 -- -monitor "unix:$sock,server=on,wait=off" >"$out" 2>&1 </dev/null &
qpid=$!

# Wait (bounded) for the prompt, then type.
for _ in $(seq 1 200); do
	grep -q 'Type help' "$out" 2>/dev/null && [ -S "$sock" ] && break
	sleep 0.1
done
python3 - "$sock" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
keys = ["e", "c", "h", "o", "spc", "shift-k", "b", "d", "spc", "x", "ctrl-w",
        "shift-minus", "ret", "p", "o", "w", "e", "r", "o", "f", "f", "ret"]
for k in keys:
    s.sendall(("sendkey %s\n" % k).encode())
    time.sleep(0.05)   # pace the monitor; the kernel's ring is 256 bytes anyway
s.close()
PY
wait $qpid
rc=$?
tr -d '\r' <"$out" >"$out.txt"
out=$out.txt
expect_rc "keyboard/poweroff-typed" 0
expect_out "keyboard/shift-and-ctrl-w" '^Kbd _$'
