#!/usr/bin/env bash
# Resets in the middle of queue-depth-32 I/O (stress runs ahcireset
# during its reads, once all 32 requests are out; the disk is throttled,
# past QEMU's initial burst, to keep them out): a COMRESET of the busy port, then an HBA
# reset asked for by the other port.  Every command the reset took is requeued and redone;
# everything verifies, in the guest and from the host.
. "$(dirname "$0")/ahci-lib.bash"

a=$imgdir/a.raw b=$imgdir/b.raw
truncate -s 128M "$a" "$b"
boot ahci-reset --machine q35 --timeout 120 --disk "$a,throttling.iops-total=300" --disk "$b" \
	--cmdline "writable=all run=\"stress sda ios=0 span=8 seed=13 qd=32 at=400 during='ahcireset sda port'; stress sda ios=0 span=8 off=48 seed=14 qd=32 at=400 during='ahcireset sdb hba'; stress sdb ios=0 span=4 seed=15\""
expect_rc "ahci-reset/run" 0
expect_out "ahci-reset/hba-reset-done" 'ahci0: port 1 does not recover: resetting the HBA'
n=$(grep -c 'STRESS sd[a-z] .*result=PASS$' "$out")
if [ "$n" = 3 ]; then ok "ahci-reset/all-verify-in-guest"; else notok "ahci-reset/all-verify-in-guest" "$n of 3 passed"; fi
r1=$(grep -o 'requeues=[0-9]*' "$out" | sed -n 1p | cut -d= -f2)
r2=$(grep -o 'requeues=[0-9]*' "$out" | sed -n 2p | cut -d= -f2)
if [ "${r1:-0}" -gt 0 ]; then ok "ahci-reset/port-reset-requeued-$r1"; else notok "ahci-reset/port-reset-requeued" "requeues=$r1: the reset met no I/O"; fi
if [ "${r2:-0}" -gt "${r1:-0}" ]; then ok "ahci-reset/hba-reset-requeued-$((r2 - r1))"; else notok "ahci-reset/hba-reset-requeued" "requeues $r1 -> $r2: the reset met no I/O"; fi
expect_no_out "ahci-reset/no-timeout" 'timed out'
stamp_check "ahci-reset/port-reset-host-verify" "$a" 13 0 8
stamp_check "ahci-reset/hba-reset-host-verify" "$a" 14 48 8
stamp_check "ahci-reset/other-port-host-verify" "$b" 15 0 4

# Link errors in the middle of queue-depth-32 I/O (ahcireset ... link
# recovers as from an interface error; the second is asked for a second
# later, while I/O runs again): each is reported and
# costs every command out a retry (3 allowed), the second within ten
# minutes would slow the link (QEMU's runs at 1.5 Gbps, the lowest
# already), and all the I/O is redone and verifies.
c=$imgdir/c.raw
truncate -s 128M "$c"
boot ahci-link --machine q35 --timeout 120 --disk "$c,throttling.iops-total=300" \
	--cmdline "writable=all run=\"stress sda ios=0 span=32 seed=16 qd=32 at=300 during='ahcireset sda link; ahcireset sda link 1000'\""
expect_rc "ahci-link/run" 0
expect_out "ahci-link/attach-speed" 'ahci0\.0: sda: .* NCQ depth 32, 1\.5 Gbps$'
n=$(grep -c 'ahci0\.0: link error (PxIS 08000000' "$out")
if [ "$n" = 2 ]; then ok "ahci-link/two-link-errors"; else notok "ahci-link/two-link-errors" "$n reported"; fi
expect_out "ahci-link/second-would-slow" 'ahci0\.0: link errors again, at the lowest speed already$'
expect_out "ahci-link/verifies-in-guest" 'STRESS sda .*result=PASS$'
r=$(grep -o 'requeues=[0-9]*' "$out" | sed -n 1p | cut -d= -f2)
if [ "${r:-0}" -gt 32 ]; then ok "ahci-link/both-met-io"; else notok "ahci-link/both-met-io" "requeues=$r"; fi
stamp_check "ahci-link/host-verify" "$c" 16 0 32
