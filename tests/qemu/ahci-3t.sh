#!/usr/bin/env bash
# A 3 TiB sparse disk: the capacity comes from IDENTIFY's 48-bit words,
# and the last MiB -- its last sector included, LBA 0x17fffffff -- is
# written and read back through NCQ, then checked from the host.
. "$(dirname "$0")/ahci-lib.bash"

img=$imgdir/3t.raw
truncate -s 3T "$img"
last_mib=$(( (3 << 20) - 1 ))
boot ahci-3t --machine q35 --timeout 120 --disk "$img" \
	--cmdline "writable=all run=\"lsblk sda; stress sda span=1 off=$last_mib seed=33 qd=32\""
expect_rc "ahci-3t/run" 0
expect_out "ahci-3t/capacity" '^sda +[0-9]+:[0-9]+ +3T +6442450944 +0 disk'
expect_out "ahci-3t/last-mib-verify" 'STRESS sd[a-z] .*result=PASS$'
stamp_check "ahci-3t/host-verify-last-mib" "$img" 33 "$last_mib" 1
last=$(python3 -c "
import struct
f = open('$img', 'rb'); f.seek(0x17fffffff * 512); w = struct.unpack('<2Q', f.read(16)); print(w[0] == 0x17fffffff and w[1] == 33)")
if [ "$last" = True ]; then ok "ahci-3t/last-sector-on-host"; else notok "ahci-3t/last-sector-on-host" "LBA 0x17fffffff holds no stamp"; fi
rm -f "$img"
