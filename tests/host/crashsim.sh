#!/usr/bin/env bash
# The power-cut simulator's checker on its own (tools/crashsim
# --selftest): the dm-log-writes parser on a good log and on malformed
# ones (bad magic, version, sector size, entry count past the end,
# truncated data, an oversized mark), the durability model (FLUSH and FUA
# points, what stays volatile, the durable image) and the rule that drops
# a promise once a later operation touched it.  Then a log QEMU's own
# blklogwrites driver wrote (through qemu-io): the parser must read its
# writes and flushes in order, and the data must be what was written.
source "$(dirname "$0")/common.bash"
python3 tools/crashsim --selftest

truncate -s 1M "$T/d.img" && truncate -s 4M "$T/d.log"
opts="driver=blklogwrites,file.driver=file,file.filename=$T/d.img,log.driver=file"
opts+=",log.filename=$T/d.log,log-sector-size=512"
check "crashsim/qemu-blklogwrites-written" qemu-io --image-opts "$opts" \
	-c "write -P 0xab 4096 8192" -c "flush" -c "write -P 0xcd 0 512" -c "flush"
python3 tools/crashsim --dump "$T/d.log" >"$T/dump" 2>&1
want=$'0 8 16 - -\n1 0 0 FLUSH -\n2 0 1 - -\n3 0 0 FLUSH -'
if [ "$(cat "$T/dump")" = "$want" ]; then ok "crashsim/qemu-blklogwrites-parsed"
else notok "crashsim/qemu-blklogwrites-parsed" "$(tr '\n' ';' <"$T/dump")"; fi
# The first entry's data: 16 sectors of 0xab right after its entry sector.
dd if="$T/d.log" of="$T/data" bs=512 skip=2 count=16 2>/dev/null
head -c 8192 /dev/zero | tr '\0' '\253' >"$T/want"
check "crashsim/qemu-blklogwrites-data" cmp "$T/data" "$T/want"
