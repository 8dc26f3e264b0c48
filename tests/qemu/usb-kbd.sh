#!/usr/bin/env bash
# USB keyboards on qemu-xhci (q35), driven over QMP input-send-event: each
# usb-kbd is bound to its own display device (display=), so the keys of a
# step reach that one keyboard and no other (not the PS/2 one).
#   - a keyboard on a root port, one behind a usb-hub, one two hubs deep:
#     commands typed on each run in the shell (shift, Ctrl-W, Ctrl-C, key
#     repeat); lsusb -t shows the topology QEMU was given.
#   - hot plug: the deep keyboard unplugged (device_del) is seen gone, a
#     new one plugged (device_add) there types; the first hub unplugged
#     takes everything below it; a root-port keyboard unplugged and plugged
#     back types again.
# (A keyboard just plugged may lose the very first key QEMU sends it, so
# the replug step types a blank line before the command it checks.)
# qemu-xhci has 4 USB 3 ports (xHCI ports 1-4) and 4 USB 2 ports (5-8):
# QEMU's port=N is xHCI port N+4 for the USB 2 devices used here.
. "$(dirname "$0")/lib.bash"

sock=$logdir/usb-kbd.sock
qmp=tests/qemu/usb-qmp.py

# run_usb NAME QMP-STEPS...: boot (its devices in $devs), drive it, collect.
run_usb() {
	local name=$1 pid
	shift
	out=$logdir/$name.out
	rm -f "$sock" "$out.raw"
	setsid tools/run-qemu --machine q35 --timeout 180 --qmp "$sock" -- $devs \
		</dev/null >"$out.raw" 2>&1 &
	pid=$!
	python3 $qmp "$sock" "$out.raw" "$@" >"$out.qmp" 2>&1
	qmp_rc=$?
	wait $pid
	rc=$?
	tr -d '\r' <"$out.raw" >"$out"
	rm -f "$out.raw"
	if [ $qmp_rc = 0 ]; then ok "$name/qmp-steps"; else notok "$name/qmp-steps" "$(tail -1 "$out.qmp")"; fi
}

# expect_tree NAME: the lsusb -t block of the output is exactly $want.
expect_tree() {
	local got
	got=$(awk '/^Bus [0-9]+: xhci/{on=1} on&&/^(Bus|  )/{print} on&&!/^(Bus|  )/{if(n++)exit}' "$out" |
		head -"$(echo "$want" | wc -l)")
	if [ "$got" = "$want" ]; then ok "$1"; else notok "$1" "lsusb -t gave: $(echo "$got" | tr '\n' '|')"; fi
}

devs="-device qemu-xhci,id=xhci
 -device VGA,id=d0 -device bochs-display,id=d1 -device secondary-vga,id=d2
 -device usb-kbd,bus=xhci.0,port=1,id=k0,display=d0
 -device usb-hub,bus=xhci.0,port=2,id=hub1
 -device usb-kbd,bus=xhci.0,port=2.1,id=k1,display=d1
 -device usb-hub,bus=xhci.0,port=2.2,id=hub2
 -device usb-kbd,bus=xhci.0,port=2.2.3,id=k2,display=d2"
run_usb usb-kbd-tree \
	'wait:Type help' \
	'type:d0:echo Root kbd_x^w_ok\n' 'wait:^Root _ok$' \
	'type:d1:echo hub one\n' 'wait:^hub one$' \
	'type:d2:echo hub two deep\n' 'wait:^hub two deep$' \
	'type:d0:echo bad^c' 'type:d0:echo good\n' 'wait:^good$' \
	'type:d1:echo rep ' 'hold:d1:z:2000' 'type:d1:\n' 'wait:^rep z' \
	'type:d2:lsusb -t\n' 'wait:^      Port 3:' \
	'type:d0:lsusb\n' 'wait:^Bus 1 Port 6\.2\.3:' \
	'last:d0:poweroff\n'
expect_rc "usb-kbd/tree/poweroff-typed" 0
expect_out "usb-kbd/root/shift-and-ctrl-w" '^Root _ok$'
expect_out "usb-kbd/behind-hub/typed" '^hub one$'
expect_out "usb-kbd/two-hubs-deep/typed" '^hub two deep$'
expect_out "usb-kbd/ctrl-c/abandons-line" '^good$'
expect_no_out "usb-kbd/ctrl-c/not-run" '^bad$'
n=$(grep -oE '^rep z+$' "$out" | tr -cd z | wc -c)
# 2 s held: the press, then repeats after 500 ms at 30/s.  The guest's
# clock may run slow on a loaded host, so ask only for repeats that rearm.
if [ "$n" -ge 3 ]; then ok "usb-kbd/key-repeat"; else notok "usb-kbd/key-repeat" "a 2 s hold typed $n z"; fi
want="Bus 1: xhci0
  Port 5: 0627:0001 high hid (usbkbd)
  Port 6: 0409:55aa full hub (hub)
    Port 1: 0627:0001 full hid (usbkbd)
    Port 2: 0409:55aa full hub (hub)
      Port 3: 0627:0001 full hid (usbkbd)"
expect_tree "usb-kbd/lsusb-t/matches-qemu"
expect_out "usb-kbd/lsusb/line" '^Bus 1 Port 6\.2\.3: ID 0627:0001 full class 03 \(hid\) driver usbkbd "QEMU USB Keyboard"$'

run_usb usb-kbd-hotplug \
	'wait:Type help' \
	'qmp:{"execute":"device_del","arguments":{"id":"k2"}}' \
	'wait:usb 1-6\.2\.3: device 0627:0001 gone' \
	'qmp:{"execute":"device_add","arguments":{"driver":"usb-kbd","bus":"xhci.0","port":"2.2.1","id":"k3","display":"d2"}}' \
	'wait:usb 1-6\.2\.1: keyboard' \
	'type:d2:echo replugged deep\n' 'wait:^replugged deep$' \
	'qmp:{"execute":"device_del","arguments":{"id":"hub1"}}' \
	'wait:usb 1-6: device 0409:55aa gone' \
	'qmp:{"execute":"device_del","arguments":{"id":"k0"}}' \
	'wait:usb 1-5: device 0627:0001 gone' \
	'qmp:{"execute":"device_add","arguments":{"driver":"usb-kbd","bus":"xhci.0","port":"1","id":"k4","display":"d0"}}' \
	'wait:usb 1-5: keyboard' \
	'type:d0: \n' 'type:d0:echo root back\n' 'wait:^root back$' \
	'type:d0:lsusb -t\n' 'wait:^  Port 5:' \
	'last:d0:poweroff\n'
expect_rc "usb-kbd/hotplug/poweroff-typed" 0
expect_out "usb-kbd/unplug/seen" 'usb 1-6\.2\.3: device 0627:0001 gone'
expect_out "usb-kbd/plug/typed" '^replugged deep$'
expect_out "usb-kbd/unplug-hub/children-gone" 'usb 1-6\.1: device 0627:0001 gone'
expect_out "usb-kbd/unplug-hub/hub-gone" 'usb 1-6: device 0409:55aa gone'
expect_out "usb-kbd/root-replug/typed" '^root back$'
want="Bus 1: xhci0
  Port 5: 0627:0001 high hid (usbkbd)"
expect_tree "usb-kbd/hotplug/lsusb-t-after"
expect_no_out "usb-kbd/no-panic" 'panic|KASSERT'
