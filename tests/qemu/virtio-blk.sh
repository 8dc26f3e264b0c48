#!/usr/bin/env bash
# virtio-blk (virtio 1.1, 5.2) on the modern PCI transport, judged from the
# host where it can be:
#  - found as vda with the serial QEMU was given (GET_ID), on MSI-X;
#  - the LBA-stamped stress at queue depth 64 verifies in the guest and,
#    sector by sector, in the image; with num-queues=4 (the device offers
#    four, one is used: one CPU) and with INTx (virtio.msix=0, or a
#    device with a single MSI-X vector) too;
#  - on a throttled disk, more than 32 reads are in flight at once;
#  - random reads at depth 32 on one CPU all come back: under QEMU's TCG
#    with one CPU, fence instructions are not host fences, and the driver
#    orders its event-index accesses by a register read instead (without
#    it, 4 of 5 such runs lost a notification and 32 reads for good);
#  - partitions of an sfdisk MBR image (logicals included) and of the GPT
#    demo image are found as vdaN;
#  - DISCARD punches holes in the image (qemu-img map), WRITE ZEROES reads
#    back as zeroes, the bytes around both untouched;
#  - blkdebug read and write errors fail exactly the affected requests;
#  - a read-only drive is offered with VIRTIO_BLK_F_RO and writes refused.
. "$(dirname "$0")/ahci-lib.bash"

# Default: pc machine, MSI-X, one queue.
img=$imgdir/stress.raw
truncate -s 128M "$img"
boot virtio-stress --timeout 180 --disk "$img,bus=virtio,dev.serial=VBLK0001" \
	--cmdline 'writable=vda run="lsblk; diskinfo vda; stress vda span=48 off=8 seed=21 qd=64; diskinfo vda"'
expect_rc "virtio/stress-run" 0
expect_out "virtio/probed" '\] vda: virtio-blk VBLK0001, 262144 sectors, 512-byte blocks, 1/1 queues, depth [0-9]+, MSI-X, flush'
expect_out "virtio/lsblk" '^vda +[0-9]+:0 +128M +262144 '
expect_out "virtio/serial" '^serial VBLK0001$'
expect_out "virtio/msix-per-queue" '^transport virtio-pci .*, MSI-X per queue$'
expect_out "virtio/ring-features" '^queues 1 of 1, [0-9]+ entries, indirect, event-idx, fence by TLB flush$'
expect_out "virtio/guest-verify" '^STRESS vda .* bad=0 .*result=PASS$'
expect_no_out "virtio/no-errors" 'vda: .*error'
stamp_check "virtio/host-verify" "$img" 21 8 48

# Depth 32 as fast as QEMU goes, three times: every read comes back.
boot virtio-qd32 --timeout 120 --disk "$img,bus=virtio,ro" \
	--cmdline 'run="elevator vda none; bench vda randread:qd=32:bs=4K:secs=3 randread:qd=32:bs=4K:secs=3 randread:qd=32:bs=4K:secs=3"'
expect_rc "virtio/qd32-run" 0
n=$(grep -c '^BENCH randread qd=32 .* iops=[1-9]' "$out")
if [ "$n" = 3 ]; then ok "virtio/qd32-all-back"; else notok "virtio/qd32-all-back" "$n of 3 runs ended ($out)"; fi
expect_no_out "virtio/qd32-none-stuck" 'still out after'

# Deep queueing, on a disk QEMU throttles to 300 reads a second (past a
# short burst): the device holds what it was given, so how many requests
# the driver keeps in flight is the driver's doing, not the host's speed.
boot virtio-deep --timeout 120 --disk "$img,bus=virtio,ro,throttling.iops-total=300" \
	--cmdline 'run="bench vda randread:qd=64:bs=4K:ios=400; diskinfo vda"'
expect_rc "virtio/deep-run" 0
mf=$(sed -n 's/^requests [0-9]*, most in flight \([0-9]*\),.*/\1/p' "$out" | tail -1)
if [ "${mf:-0}" -gt 32 ]; then ok "virtio/deep-queue-$mf-in-flight"; else notok "virtio/deep-queue" "most in flight: $mf"; fi

# num-queues=4 on q35 (PCIe): the device offers four, one per CPU is used.
img=$imgdir/mq.raw
truncate -s 128M "$img"
boot virtio-mq --machine q35 --timeout 180 --disk "$img,bus=virtio,dev.num-queues=4" \
	--cmdline 'writable=vda run="diskinfo vda; stress vda span=48 off=8 seed=22 qd=64"'
expect_rc "virtio/mq-run" 0
expect_out "virtio/mq-offered-4" '^queues 1 of 4, '
expect_out "virtio/mq-guest-verify" '^STRESS vda .* bad=0 .*result=PASS$'
stamp_check "virtio/mq-host-verify" "$img" 22 8 48

# INTx: the ISR says which interrupt it was.
img=$imgdir/intx.raw
truncate -s 64M "$img"
boot virtio-intx --timeout 180 --disk "$img,bus=virtio" \
	--cmdline 'writable=vda virtio.msix=0 run="diskinfo vda; stress vda span=16 off=4 seed=23 qd=64"'
expect_rc "virtio/intx-run" 0
expect_out "virtio/intx-in-use" '^transport virtio-pci .*, INTx$'
expect_out "virtio/intx-guest-verify" '^STRESS vda .* bad=0 .*result=PASS$'
stamp_check "virtio/intx-host-verify" "$img" 23 4 16

# One MSI-X vector is too few (configuration + a queue): back to INTx.
boot virtio-one-vector --timeout 120 --disk "$img,bus=virtio,dev.vectors=1" \
	--cmdline 'writable=vda run="diskinfo vda; stress vda span=8 off=24 seed=24 qd=64"'
expect_rc "virtio/one-vector-run" 0
expect_out "virtio/one-vector-falls-back-to-intx" '^transport virtio-pci .*, INTx$'
expect_out "virtio/one-vector-guest-verify" '^STRESS vda .* bad=0 .*result=PASS$'
stamp_check "virtio/one-vector-host-verify" "$img" 24 24 8

# Partitions: the demo's MBR disk (primary, extended, two logicals) and GPT disk.
demo=$logdir/virtio-demo
tools/mkdemo "$demo" >/dev/null
cp "$demo/ide0.img" "$imgdir/mbr.img"
cp "$demo/ahci0.img" "$imgdir/gpt.img"
boot virtio-parts --timeout 120 --disk "$imgdir/mbr.img,bus=virtio" --disk "$imgdir/gpt.img,bus=virtio" \
	--cmdline 'run="lsblk; cat /vda5/hello.txt; cat /vdb2/hello.txt"'
expect_rc "virtio/parts-run" 0
res=ok
while read -r n start size; do
	[ -n "$n" ] || continue
	grep -qE "^vda$n +[0-9]+:$n +[0-9.]+[KMG] +$size " "$out" || res="vda$n ($size sectors) missing"
done < <(sfdisk -d "$imgdir/mbr.img" | sed -n 's|^[^ ]*img\([0-9]*\) : start= *\([0-9]*\), size= *\([0-9]*\), type=\([0-9a-f]*\).*|\1 \2 \3 \4|p' |
	 awk '$4 != "5" { print $1, $2, $3 }')
[ "$res" = ok ] && ok "virtio/mbr-partitions-as-sfdisk" || notok "virtio/mbr-partitions-as-sfdisk" "$res"
expect_out "virtio/gpt-vdb2" '^vdb2 +[0-9]+:[0-9]+ +'
expect_out "virtio/ext2-on-logical-vda5" '^hello from a logical partition on the IDE disk$'
expect_out "virtio/ext2-on-gpt-vdb2" '^hello from the demo disk$'

# Discard and write zeroes: 16 MiB of 0xab, then holes and zeroes.
img=$imgdir/discard.raw
truncate -s 64M "$img"
python3 -c "
import sys
with open(sys.argv[1], 'r+b') as f:
    f.write(b'\xab' * (16 << 20))
" "$img"
boot virtio-discard --timeout 120 --disk "$img,bus=virtio,discard=unmap" \
	--cmdline 'writable=vda run="diskinfo vda; blkdiscard vda 1M 4M; hexdump vda 1048560 32; hexdump vda 5242864 32; blkzeroout vda 8M 64K; hexdump vda 8388608 16; hexdump vda 8454144 16"'
expect_rc "virtio/discard-run" 0
expect_out "virtio/discard-offered" '^discard yes$'
expect_out "virtio/write-zeroes-offered" '^write zeroes yes$'
expect_out "virtio/blkdiscard-ok" '^blkdiscard: vda: 4194304 bytes at 1048576$'
expect_out "virtio/blkzeroout-ok" '^blkzeroout: vda: 65536 bytes at 8388608$'
expect_out "virtio/zeroout-reads-zero" '^00800000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00 '
expect_out "virtio/zeroout-end-kept" '^00810000  ab ab ab ab'
qemu-img map --output=json -f raw "$img" >"$logdir/virtio-discard.map"
res=$(python3 - "$logdir/virtio-discard.map" "$img" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
def data_at(off):
    for e in m:
        if e["start"] <= off < e["start"] + e["length"]:
            return e["data"]
M = 1 << 20
bad = []
if not all(not data_at(o) for o in range(M, 5 * M, 4096)): bad.append("no hole over the discard")
if not (data_at(M - 4096) and data_at(5 * M)): bad.append("hole past the discard")
d = open(sys.argv[2], 'rb').read(16 * M)
if d[M - 512:M] != b'\xab' * 512 or d[5 * M:5 * M + 512] != b'\xab' * 512: bad.append("neighbours changed")
if d[M:5 * M] != bytes(4 * M): bad.append("discarded range not zero")
if d[8 * M:8 * M + 65536] != bytes(65536): bad.append("zeroed range not zero")
print("ok" if not bad else "; ".join(bad))
PY
)
[ "$res" = ok ] && ok "virtio/discard-host-holes" || notok "virtio/discard-host-holes" "$res"

# Faults: blkdebug read and write errors on three and two sectors.
errcfg() {	# FILE EVENT SECTOR...
	local f=$1 ev=$2 s
	shift 2
	: >"$f"
	for s in "$@"; do
		printf '[inject-error]\nevent = "%s"\niotype = "%s"\nerrno = "5"\nsector = "%s"\nonce = "off"\n\n' \
			"$ev" "${ev%_aio}" "$s" >>"$f"
	done
}
# eio_exact NAME OP SECTOR...: the I/Os stress saw fail form one
# contiguous run per injected sector, each run covering its sector --
# QEMU's virtio-blk merges adjacent requests into one I/O before blkdebug
# sees it, so a failing neighbour shares the error -- and every request
# the driver logged as failed (the log is rate-limited, so not all of
# them) lies inside those runs.
eio_exact() {
	local name=$1 op=$2 res
	shift 2
	res=$(python3 - "$out" "$op" "$@" <<'PY'
import re, sys
text, op, want = open(sys.argv[1]).read(), sys.argv[2], sorted(int(x) for x in sys.argv[3:])
dev = sorted((int(s), int(b) // 512) for s, b in
             re.findall(r"vda: %s error \(status \d+\) at sector (\d+) \((\d+) bytes\)" % op, text))
bios = sorted((int(l), int(n)) for l, n in re.findall(r"STRESS eio \S+ op=%s lba=(\d+) n=(\d+)" % op, text))
runs = []
for l, n in bios:
    if runs and runs[-1][1] >= l:
        runs[-1][1] = max(runs[-1][1], l + n)
    else:
        runs.append([l, l + n])
hit = [[s for s in want if a <= s < b] for a, b in runs]
if any(len(h) != 1 for h in hit) or sorted(h[0] for h in hit) != want:
    print("injected %s, failed I/Os %s" % (want, bios)); sys.exit()
cover = set()
for a, b in runs:
    cover.update(range(a, b))
stray = [(l, n) for l, n in dev if not set(range(l, l + n)) <= cover]
print("ok" if dev and not stray else "logged failures %s outside the failed I/Os %s" % (stray or dev, bios))
PY
)
	if [ "$res" = ok ]; then ok "$name"; else notok "$name" "$res"; fi
}
vdrive() {	# CFG IMAGE
	echo "-drive if=none,id=bd0,file=blkdebug:$1:$2,format=raw,werror=report,rerror=report,cache=unsafe -device virtio-blk-pci,drive=bd0,disable-legacy=on"
}
img=$imgdir/err-read.raw
truncate -s 64M "$img"
errcfg "$imgdir/read.cfg" read_aio 20000 40000 60001
# shellcheck disable=SC2046
boot virtio-errors-read --timeout 180 \
	--cmdline 'writable=all run="stress vda ios=0 span=32 seed=25 qd=64; stress vda ios=0 span=8 off=40 seed=26 qd=64"' \
	-- $(vdrive "$imgdir/read.cfg" "$img")
expect_out "virtio/read-error-logged" 'vda: read error \(status 1\) at sector [0-9]+'
eio_exact "virtio/read-exactly-affected-fail" read 20000 40000 60001
expect_out "virtio/read-others-verify" 'STRESS vda .* eio=[1-9][0-9]* bad=0 .*result=FAIL$'
expect_out "virtio/read-disk-keeps-working" 'STRESS vda .*result=PASS$'
stamp_check "virtio/read-host-verify" "$img" 25 0 32

img=$imgdir/err-write.raw
truncate -s 64M "$img"
errcfg "$imgdir/write.cfg" write_aio 30000 50000
# shellcheck disable=SC2046
boot virtio-errors-write --timeout 180 \
	--cmdline 'writable=all run="stress vda ios=0 span=32 seed=27 qd=64 op=write; stress vda ios=0 span=8 off=40 seed=28 qd=64"' \
	-- $(vdrive "$imgdir/write.cfg" "$img")
eio_exact "virtio/write-exactly-affected-fail" write 30000 50000
expect_out "virtio/write-others-ok" 'STRESS vda .* eio=[1-9][0-9]* bad=0 .*result=FAIL$'
expect_out "virtio/write-disk-keeps-working" 'STRESS vda .*result=PASS$'
stamp_check "virtio/write-host-verify-others" "$img" 27 0 32 exclude
stamp_check "virtio/write-host-verify-after" "$img" 28 40 8

# A read-only drive: VIRTIO_BLK_F_RO, and writes refused even when allowed.
img=$imgdir/ro.raw
truncate -s 16M "$img"
boot virtio-ro --timeout 120 --disk "$img,bus=virtio,readonly=on" \
	--cmdline 'writable=vda run="lsblk; blkzeroout vda 0 4096"'
expect_rc "virtio/ro-write-fails-the-run" 1
expect_out "virtio/ro-probed" '\] vda: virtio-blk .*, read-only$'
expect_out "virtio/ro-refused" '^blkzeroout: vda: read-only'
