#!/usr/bin/env bash
# A stick pulled out during I/O and plugged back (QMP device_del and
# device_add on q35's qemu-xhci): the stress on the stick fails with
# errors and the kernel keeps running; the stick's disk goes away (lsblk)
# while the SATA disk beside it keeps working (a stress passes, checked
# from the host); the stick plugged again comes back as sdb, and a stress
# on it passes and is checked from the host.  Then fault injection
# (blkdebug under the stick): exactly the reads that touch an injected
# sector fail, with the sector and the device's sense in the log; the
# stick keeps working.  The steps are driven by tests/qemu/usb-hotplug.py,
# each when the output says the one before is done.
. "$(dirname "$0")/lib.bash"

dir=$logdir/usb-hotplug
rm -rf "$dir" && mkdir -p "$dir"
truncate -s 64M "$dir/sata.raw"
truncate -s 64M "$dir/stick.raw"
sock=$dir/qmp.sock fifo=$dir/serial.in
rm -f "$sock" && mkfifo "$fifo"
out=$dir/hotplug.out
python3 tests/qemu/usb-hotplug.py "$out" "$sock" "$fifo" "$dir/stick.raw" -- \
	tools/run-qemu --machine q35 --timeout 600 --qmp "$sock" --input "$fifo" \
	--disk "$dir/sata.raw,bus=ahci" --disk "$dir/stick.raw,bus=usb,dev.id=stick0" \
	--cmdline 'writable=all' 2>"$dir/driver.err"
rc=$?
if [ $rc = 0 ]; then ok "usb-hotplug/steps"; else notok "usb-hotplug/steps" "$(cat "$dir/driver.err")"; fi
expect_out "usb-hotplug/io-fails" 'STRESS sdb .*result=FAIL$'
expect_out "usb-hotplug/enodev" 'sdb: (read|write|flush) error -19 '
expect_out "usb-hotplug/disk-gone" ': sdb: device gone$'
expect_out "usb-hotplug/sata-untouched" 'STRESS sda .*result=PASS$'
lba_check "usb-hotplug/sata-host-verify" "$dir/sata.raw" 5 0 $((4 * 2048))
expect_out "usb-hotplug/back-again" '^sdb +8:16 +64M '
expect_out "usb-hotplug/replugged-works" 'STRESS sdb .*seed=11 .*result=PASS$'
lba_check "usb-hotplug/replugged-host-verify" "$dir/stick.raw" 11 $((8 * 2048)) $((4 * 2048))
expect_no_out "usb-hotplug/no-panic" 'panic|KASSERT|page fault'

# Fault injection: blkdebug fails reads of three sectors (ENODATA: QEMU's
# scsi-disk answers MEDIUM ERROR, unrecovered read error).
cfg=$dir/read.cfg img=$dir/faults.raw
truncate -s 64M "$img"
: >"$cfg"
for s in 20000 40000 60001; do
	printf '[inject-error]\nevent = "read_aio"\niotype = "read"\nerrno = "61"\nsector = "%s"\nonce = "off"\n\n' "$s" >>"$cfg"
done
boot usb-faults --machine q35 --timeout 300 \
	--cmdline 'writable=all run="stress sda ios=0 span=32 seed=5; stress sda ios=0 span=8 off=40 seed=6"' \
	-- -device qemu-xhci,id=xhci \
	-drive "if=none,id=bd0,file=blkdebug:$cfg:$img,format=raw,werror=report,rerror=report,cache=unsafe" \
	-device usb-storage,bus=xhci.0,drive=bd0
expect_out "usb-faults/sense-logged" 'sda: read at sector [0-9]+: Medium Error: unrecovered read error \(asc 11/00\)'
expect_out "usb-faults/error-with-sector" 'sda: read error -5 at sector [0-9]+'
res=$(python3 - "$out" <<'PY'
import re, sys
out, want = open(sys.argv[1]).read(), [20000, 40000, 60001]
got = [(int(l), int(n)) for l, n in re.findall(r"STRESS eio \S+ op=read lba=(\d+) n=(\d+)", out)]
left = list(want)
for l, n in got:
    hit = [s for s in left if l <= s < l + n]
    if not hit:
        print("request %d+%d failed but holds no injected sector" % (l, n)); sys.exit()
    left.remove(hit[0])
print("ok" if not left and len(got) == len(want) else "injected %s, failed %s" % (want, got))
PY
)
if [ "$res" = ok ]; then ok "usb-faults/exactly-affected-fail"; else notok "usb-faults/exactly-affected-fail" "$res"; fi
expect_out "usb-faults/others-verify" 'STRESS sda .* eio=3 bad=0 .*result=FAIL$'
expect_out "usb-faults/stick-keeps-working" 'STRESS sda .*seed=6.*result=PASS$'
lba_check "usb-faults/host-verify" "$img" 5 0 $((32 * 2048))
