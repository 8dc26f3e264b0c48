#!/usr/bin/env bash
# AHCI error recovery with injected media errors (QEMU blkdebug, reported
# to the guest as ERR/ABRT): during a queue-depth-32 workload exactly the
# requests that touch an injected sector fail, with their sector in the
# log; every other request completes and verifies (in the guest, and from
# the host for writes); the disk keeps working afterwards.
. "$(dirname "$0")/ahci-lib.bash"

# errcfg FILE EVENT SECTOR...: a blkdebug config failing EVENT at each sector, always.
errcfg() {
	local f=$1 ev=$2 io s
	shift 2
	io=${ev%_aio}
	[ "$ev" = flush_to_disk ] && io=flush
	: >"$f"
	for s in "$@"; do
		printf '[inject-error]\nevent = "%s"\niotype = "%s"\nerrno = "5"\n' "$ev" "$io" >>"$f"
		[ "$s" = - ] || printf 'sector = "%s"\n' "$s" >>"$f"
		printf 'once = "off"\n\n' >>"$f"
	done
}

# eio_exact NAME OP SECTOR...: the last boot reported one failed OP request
# per injected sector, each covering it, and no other failure of that kind.
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

drive() {	# drive CFG IMAGE [CACHE]: the blkdebug-backed disk on q35's AHCI port 0
	echo "-drive if=none,id=bd0,file=blkdebug:$1:$2,format=raw,werror=report,rerror=report,cache=${3:-unsafe} -device ide-hd,drive=bd0,bus=ide.0"
}

# Reads: the whole region is written cleanly, then read back with errors.
img=$imgdir/read.raw
truncate -s 64M "$img"
errcfg "$imgdir/read.cfg" read_aio 20000 40000 60001
# shellcheck disable=SC2046
boot ahci-errors-read --machine q35 --timeout 120 \
	--cmdline 'writable=all run="stress sda ios=0 span=32 seed=5 qd=32; stress sda ios=0 span=8 off=40 seed=6 qd=32"' \
	-- $(drive "$imgdir/read.cfg" "$img")
expect_out "ahci-errors/read-logged-with-sector" 'sda: read error -5 at sector [0-9]+'
eio_exact "ahci-errors/read-exactly-affected-fail" read 20000 40000 60001
expect_no_out "ahci-errors/read-no-write-failed" 'STRESS eio sda op=write'
expect_out "ahci-errors/read-others-verify" 'STRESS sda .* eio=3 bad=0 .*result=FAIL$'
expect_out "ahci-errors/read-disk-keeps-working" 'STRESS sd[a-z] .*result=PASS$'
expect_no_out "ahci-errors/read-port-survives" 'does not recover|offline'
stamp_check "ahci-errors/read-host-verify" "$img" 5 0 32

# Writes: failing writes leave their sectors alone, the rest land.
img=$imgdir/write.raw
truncate -s 64M "$img"
errcfg "$imgdir/write.cfg" write_aio 30000 50000
# shellcheck disable=SC2046
boot ahci-errors-write --machine q35 --timeout 120 \
	--cmdline 'writable=all run="stress sda ios=0 span=32 seed=7 qd=32 op=write; stress sda ios=0 span=8 off=40 seed=8 qd=32"' \
	-- $(drive "$imgdir/write.cfg" "$img")
expect_out "ahci-errors/write-logged-with-sector" 'sda: write error -5 at sector [0-9]+'
eio_exact "ahci-errors/write-exactly-affected-fail" write 30000 50000
expect_out "ahci-errors/write-count" 'STRESS sda .* eio=2 bad=0 .*result=FAIL$'
expect_out "ahci-errors/write-disk-keeps-working" 'STRESS sd[a-z] .*result=PASS$'
expect_no_out "ahci-errors/write-port-survives" 'does not recover|offline'
stamp_check "ahci-errors/write-host-verify-others" "$img" 7 0 32 exclude
stamp_check "ahci-errors/write-host-verify-after" "$img" 8 40 8

# The same read errors without NCQ: several DMA commands in the slots, and
# QEMU clears PxCI of the failing one, so recovery isolates to find it.
img=$imgdir/read-noncq.raw
truncate -s 64M "$img"
# shellcheck disable=SC2046
boot ahci-errors-noncq --machine q35 --timeout 120 \
	--cmdline 'writable=all ahci.ncq=0 run="stress sda ios=0 span=32 seed=9 qd=32; stress sda ios=0 span=8 off=40 seed=10 qd=32"' \
	-- $(drive "$imgdir/read.cfg" "$img")
eio_exact "ahci-errors/noncq-exactly-affected-fail" read 20000 40000 60001
expect_out "ahci-errors/noncq-others-verify" 'STRESS sda .* eio=3 bad=0 .*result=FAIL$'
expect_out "ahci-errors/noncq-disk-keeps-working" 'STRESS sd[a-z] .*result=PASS$'
stamp_check "ahci-errors/noncq-host-verify" "$img" 9 0 32

# A failing FLUSH CACHE EXT (the write cache is real here: cache=writeback)
# reaches the flusher as -EIO; the writes before it and the I/O after it
# are fine.
img=$imgdir/flush.raw
truncate -s 64M "$img"
errcfg "$imgdir/flush.cfg" flush_to_disk -
# shellcheck disable=SC2046
boot ahci-errors-flush --machine q35 --timeout 120 \
	--cmdline 'writable=all run="stress sda ios=0 span=4 seed=17 qd=32 op=write; stress sda ios=0 span=4 seed=17 qd=32 op=read"' \
	-- $(drive "$imgdir/flush.cfg" "$img" writeback)
expect_out "ahci-errors/flush-error-logged" 'sda: flush error -5 at sector 0'
expect_out "ahci-errors/flush-error-to-flusher" 'STRESS eio sda op=flush lba=0 n=0 err=-5'
expect_out "ahci-errors/flush-writes-fine" 'STRESS sda .*writes=[1-9][0-9]* .* eio=1 bad=0 .*result=FAIL$'
expect_out "ahci-errors/flush-reads-back" 'STRESS sda .*reads=[1-9][0-9]* .* eio=0 bad=0 .*result=PASS$'
expect_no_out "ahci-errors/flush-no-spurious-io-error" 'STRESS eio sda op=(read|write)'
stamp_check "ahci-errors/flush-host-verify" "$img" 17 0 4
