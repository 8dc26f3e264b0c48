#!/usr/bin/env bash
# AHCI DSM TRIM (ACS-3 7.5): blkdiscard on a SATA disk behind QEMU's AHCI
# with discard=unmap becomes DATA SET MANAGEMENT, and the host sees the
# image's allocation drop exactly over the range (qemu-img map), with
# the bytes on either side untouched.  QEMU's ide-hd says reads after
# TRIM are deterministic but not that they are zero (IDENTIFY word 69),
# so WRITE ZEROES must not become a TRIM: blkzeroout still zeroes the
# range, by writing, and the host finds data there, not a hole.
. "$(dirname "$0")/lib.bash"

img=$logdir/ahci-trim.img
rm -f "$img"
truncate -s 64M "$img"
# 16 MiB of 0xab, so both a hole and a written zero are visible.
python3 -c "
import sys
with open(sys.argv[1], 'r+b') as f:
    f.write(b'\xab' * (16 << 20))
" "$img"

boot ahci-trim --machine q35 --timeout 120 --disk "$img,bus=ahci,discard=unmap" \
	--cmdline 'writable=sda run="diskinfo sda; blkdiscard sda 1M 4M; hexdump sda 1048560 32; hexdump sda 5242864 32; blkzeroout sda 8M 64K"'
expect_rc "ahci-trim/run" 0
expect_out "ahci-trim/identify-says-trim" '^trim yes, deterministic after$'
expect_out "ahci-trim/blkdiscard-ok" '^blkdiscard: sda: 4194304 bytes at 1048576$'
expect_out "ahci-trim/reads-before-kept" '^000ffff0  ab ab ab ab'
expect_out "ahci-trim/reads-after-kept" '^00500000  ab ab ab ab'
expect_out "ahci-trim/blkzeroout-ok" '^blkzeroout: sda: 65536 bytes at 8388608$'

# The host: a hole exactly over [1 MiB, 5 MiB), data around it.
map=$(qemu-img map --output=json -f raw "$img")
echo "$map" >"$logdir/ahci-trim.map"
hole=$(python3 - "$logdir/ahci-trim.map" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
def data_at(off):
    for e in m:
        if e["start"] <= off < e["start"] + e["length"]:
            return e["data"]
    return None
lo, hi = 1 << 20, 5 << 20
holes = all(not data_at(o) for o in range(lo, hi, 4096))
around = data_at(lo - 4096) and data_at(hi)
zero_written = data_at(8 << 20) and data_at((8 << 20) + 65536 - 4096)
print("ok" if holes and around and zero_written else
      "holes=%s around=%s zero_written=%s" % (holes, around, zero_written))
PY
)
if [ "$hole" = ok ]; then ok "ahci-trim/host-sees-hole"; else notok "ahci-trim/host-sees-hole" "$hole (map in $logdir/ahci-trim.map)"; fi

# The bytes: zero over the trimmed and zeroed ranges, 0xab next to them.
check=$(python3 - "$img" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read(16 << 20)
M = 1 << 20
bad = []
if d[M - 512:M] != b'\xab' * 512: bad.append("before")
if d[M:5 * M] != bytes(4 * M): bad.append("range")
if d[5 * M:5 * M + 512] != b'\xab' * 512: bad.append("after")
if d[8 * M:8 * M + 65536] != bytes(65536): bad.append("zeroout")
if d[8 * M + 65536:8 * M + 65536 + 512] != b'\xab' * 512: bad.append("zeroout-after")
print("ok" if not bad else " ".join(bad))
PY
)
if [ "$check" = ok ]; then ok "ahci-trim/host-bytes"; else notok "ahci-trim/host-bytes" "$check"; fi

# TRIM in the middle of NCQ traffic: it waits for the queue to drain, goes
# alone, and the stamped I/O around it verifies (guest and host).
img=$logdir/ahci-trim-ncq.img
rm -f "$img"
truncate -s 64M "$img"
python3 -c "
import sys
with open(sys.argv[1], 'r+b') as f:
    f.seek(40 << 20); f.write(b'\xcd' * (8 << 20))
" "$img"
boot ahci-trim-ncq --machine q35 --timeout 180 --disk "$img,bus=ahci,discard=unmap" \
	--cmdline "writable=sda run=\"stress sda span=32 off=4 seed=31 qd=32 at=200 during='blkdiscard sda 41M 2M'\""
expect_rc "ahci-trim/ncq-run" 0
expect_out "ahci-trim/ncq-blkdiscard-ok" 'blkdiscard: sda: 2097152 bytes at 42991616$'
expect_out "ahci-trim/ncq-stress-verifies" '^STRESS sda .*bad=0 .*result=PASS$'
lba_check "ahci-trim/ncq-host-verify" "$img" 31 $((4 * 2048)) $((32 * 2048))
res=$(python3 - "$img" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read(48 << 20)
M = 1 << 20
ok = d[40 * M:41 * M] == b'\xcd' * M and d[41 * M:43 * M] == bytes(2 * M) and d[43 * M:48 * M] == b'\xcd' * (5 * M)
print("ok" if ok else "range or neighbours wrong")
PY
)
[ "$res" = ok ] && ok "ahci-trim/ncq-host-range" || notok "ahci-trim/ncq-host-range" "$res"
