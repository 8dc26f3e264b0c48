#!/usr/bin/env bash
# Resets in the middle of queue-depth-32 I/O (ahcistress runs ahcireset
# halfway through its writes, with up to 32 commands out; the disk is
# throttled to keep them out): a COMRESET of the busy port, then an HBA
# reset asked for by the other port.  Every command the reset took is requeued and redone;
# everything verifies, in the guest and from the host.
. "$(dirname "$0")/ahci-lib.bash"

a=$imgdir/a.raw b=$imgdir/b.raw
truncate -s 128M "$a" "$b"
boot ahci-reset --machine q35 --timeout 120 --disk "$a,throttling.iops-total=1000" --disk "$b" \
	--cmdline 'run="ahcistress sda mib=16 seed=13 qd=32 reset=sda:port; ahcistress sda mib=16 off=48 seed=14 qd=32 reset=sdb:hba; ahcistress sdb mib=4 seed=15"'
expect_rc "ahci-reset/run" 0
expect_out "ahci-reset/hba-reset-done" 'ahci0: port 1 does not recover: resetting the HBA'
n=$(grep -c 'AHCISTRESS result=PASS' "$out")
if [ "$n" = 3 ]; then ok "ahci-reset/all-verify-in-guest"; else notok "ahci-reset/all-verify-in-guest" "$n of 3 passed"; fi
# How many commands the resets took back depends on QEMU's timing; at
# least one must have been out, or the test proved nothing.
r=$(grep -o 'requeues=[0-9]*' "$out" | sed -n 2p | cut -d= -f2)
if [ "${r:-0}" -gt 0 ]; then ok "ahci-reset/commands-requeued-$r"; else notok "ahci-reset/commands-requeued" "requeues=$r: no reset met I/O in flight"; fi
expect_no_out "ahci-reset/no-timeout" 'timed out'
stamp_check "ahci-reset/port-reset-host-verify" "$a" 13 0 16
stamp_check "ahci-reset/hba-reset-host-verify" "$a" 14 48 16
stamp_check "ahci-reset/other-port-host-verify" "$b" 15 0 4
