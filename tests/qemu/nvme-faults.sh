#!/usr/bin/env bash
# NVMe error handling.  Media errors injected with QEMU blkdebug fail
# exactly the requests that touch an injected sector, each reported as
# one line with its command, LBA and the decoded status; everything else
# completes and verifies (in the guest and from the host).  A namespace
# that stops answering (null-co with 1.5 s latency, nvme.timeout_ms=500):
# each late command is aborted (QEMU declines), the controller reset and
# the command requeued, at most three times, then it fails with -EIO; the
# controller is live after each reset and a second one keeps working.
# A disk whose every write fails logs ten of them in five seconds.
. "$(dirname "$0")/nvme-lib.bash"

# errcfg FILE EVENT SECTOR...: a blkdebug config failing EVENT at each sector, always.
errcfg() {
	local f=$1 ev=$2 io s
	shift 2
	io=${ev%_aio}
	: >"$f"
	for s in "$@"; do
		printf '[inject-error]\nevent = "%s"\niotype = "%s"\nerrno = "5"\nsector = "%s"\nonce = "off"\n\n' \
			"$ev" "$io" "$s" >>"$f"
	done
}

# eio_exact NAME OP SECTOR...: one failed OP request per injected sector,
# each covering it, and no other failure of that kind.
eio_exact() {
	local name=$1 op=$2 res
	shift 2
	res=$(python3 - "$out" "$op" "$@" <<'PY'
import re, sys
out, op, want = sys.argv[1], sys.argv[2], [int(x) for x in sys.argv[3:]]
got = [(int(l), int(n)) for l, n in re.findall(r"STRESS eio \S+ op=%s lba=(\d+) n=(\d+)" % op, open(out).read())]
left = list(want)
for l, n in got:
    hit = [s for s in left if l <= s < l + n]
    if not hit:
        print("request %d+%d failed but holds no injected sector" % (l, n)); sys.exit()
    left.remove(hit[0])
if left or len(got) != len(want):
    print("injected %s, failed %s" % (want, got)); sys.exit()
print("ok")
PY
)
	if [ "$res" = ok ]; then ok "$name"; else notok "$name" "$res"; fi
}

drive() {	# drive CFG IMAGE: the blkdebug-backed namespace of one controller
	echo "-drive if=none,id=bd0,file=blkdebug:$1:$2,format=raw,werror=report,rerror=report,cache=unsafe -device nvme,drive=bd0,serial=faulty"
}

# Reads: the region is written cleanly first, then read back with errors.
img=$imgdir/read.raw
truncate -s 64M "$img"
errcfg "$imgdir/read.cfg" read_aio 20000 40000 60001
# shellcheck disable=SC2046
boot nvme-errors-read --machine q35 --timeout 180 \
	--cmdline 'writable=all run="stress nvme0n1 ios=0 span=32 seed=5 qd=64; stress nvme0n1 ios=0 span=8 off=40 seed=6 qd=64"' \
	-- $(drive "$imgdir/read.cfg" "$img")
expect_out "nvme-faults/read-decoded" 'nvme0n1: READ lba [0-9]+ len [0-9]+: Unrecovered Read Error \(sct 2 sc 0x81'
eio_exact "nvme-faults/read-exactly-affected-fail" read 20000 40000 60001
expect_no_out "nvme-faults/read-no-write-failed" 'STRESS eio nvme0n1 op=write'
expect_out "nvme-faults/read-others-verify" 'STRESS nvme0n1 .* eio=3 bad=0 .*result=FAIL$'
expect_out "nvme-faults/read-disk-keeps-working" 'STRESS nvme0n1 .*seed=6 .*result=PASS$'
stamp_check "nvme-faults/read-host-verify" "$img" 5 0 32

# Writes: failed writes are the only ones missing from the image.
img=$imgdir/write.raw
truncate -s 64M "$img"
errcfg "$imgdir/write.cfg" write_aio 30000 50000
# shellcheck disable=SC2046
boot nvme-errors-write --machine q35 --timeout 180 \
	--cmdline 'writable=all run="stress nvme0n1 ios=0 span=32 seed=7 qd=64 op=write; stress nvme0n1 ios=0 span=8 off=40 seed=8 qd=64"' \
	-- $(drive "$imgdir/write.cfg" "$img")
expect_out "nvme-faults/write-decoded" 'nvme0n1: WRITE lba [0-9]+ len [0-9]+: Write Fault \(sct 2 sc 0x80'
eio_exact "nvme-faults/write-exactly-affected-fail" write 30000 50000
expect_out "nvme-faults/write-count" 'STRESS nvme0n1 .* eio=2 bad=0 .*result=FAIL$'
expect_out "nvme-faults/write-disk-keeps-working" 'STRESS nvme0n1 .*seed=8 .*result=PASS$'
stamp_check "nvme-faults/write-host-verify-others" "$img" 7 0 32 exclude
stamp_check "nvme-faults/write-host-verify-after" "$img" 8 40 8

# A namespace that fails every write (a read-only drive: QEMU answers
# Write Fault): the disk's error lines are rate-limited, ten in five
# seconds, and the next one after the pause counts those held back.
img=$imgdir/ro.raw
truncate -s 16M "$img"
boot nvme-errors-ratelimit --machine q35 --timeout 180 \
	--cmdline 'writable=all run="stress nvme0n1 ios=200 span=4 seed=9 qd=16 op=write; iostat nvme0n1 6 2; stress nvme0n1 ios=1 span=4 seed=9 qd=1 op=write"' \
	-- -drive if=none,id=ro0,file="$img",format=raw,readonly=on -device nvme,drive=ro0,serial=ro
n=$(sed -n '/^run: /,/^STRESS nvme0n1 /p' "$out" | grep -c 'nvme0n1: WRITE lba .*: Write Fault')
e=$(sed -n 's/^STRESS nvme0n1 .* eio=\([0-9]*\) .*/\1/p' "$out" | head -1)
if [ "$n" -ge 1 ] && [ "$n" -le 10 ] && [ "${e:-0}" -gt 20 ]; then ok "nvme-faults/errors-ratelimited"; else
	notok "nvme-faults/errors-ratelimited" "$n error lines for ${e:-?} failed writes"; fi
expect_out "nvme-faults/errors-suppressed-counted" 'nvme0n1: [0-9]+ messages suppressed'

# A namespace that stops answering, beside a healthy controller.
img=$imgdir/ok.raw
truncate -s 64M "$img"
qlog=$logdir/nvme-timeout.qemu.log
rm -f "$qlog"
boot nvme-timeout --machine q35 --timeout 240 --disk "$img,bus=nvme" \
	--cmdline 'writable=all nvme.timeout_ms=500 run="hexdump nvme1n1 0 16; stress nvme0n1 span=8 seed=8 qd=64; diskinfo nvme1n1"' -- \
	-smp 2 -D "$qlog" -trace pci_nvme_dbbuf_config \
	-blockdev driver=null-co,node-name=slow,size=67108864,latency-ns=1500000000,read-zeroes=on \
	-device nvme,drive=slow,serial=slow
expect_rc "nvme-faults/timeout/hexdump-fails" 1
expect_out "nvme-faults/timeout/aborted" 'nvme1n1: READ lba [0-9]+ timed out: abort (declined|accepted|failed)'
expect_out "nvme-faults/timeout/reset" '\] nvme1: reset done'
expect_out "nvme-faults/timeout/hexdump-eio" '^hexdump: nvme1n1: I/O error'
# The hexdump's read: its first try and three retries, each timed out and reset.
n=$(sed -n '/^run: /,$p' "$out" | grep -c 'nvme1n1: READ lba 0 timed out')
if [ "$n" = 4 ]; then ok "nvme-faults/timeout/bounded-retries"; else
	notok "nvme-faults/timeout/bounded-retries" "$n timeouts after run:, wanted 4"; fi
expect_out "nvme-faults/timeout/counted" '^ *resets [1-9][0-9]* aborts [1-9][0-9]*$'
expect_out "nvme-faults/timeout/other-works" '^STRESS nvme0n1 .*result=PASS$'
expect_out "nvme-faults/timeout/still-live" '^ *state live$'
# A reset forgets the shadow doorbells: both controllers got them at
# probe (two CPUs: fences order memory), and nvme1 again after each of
# its resets.
resets=$(sed -n 's/^ *resets \([0-9]*\) aborts.*/\1/p' "$out" | tail -1)
n=$(grep -c 'pci_nvme_dbbuf_config' "$qlog")
if [ -n "$resets" ] && [ "$n" = $((2 + resets)) ]; then ok "nvme-faults/timeout/dbbuf-after-reset"; else
	notok "nvme-faults/timeout/dbbuf-after-reset" "$n configs for ${resets:-?} resets in $qlog"; fi
stamp_check "nvme-faults/timeout/other-host-verify" "$img" 8 0 8
