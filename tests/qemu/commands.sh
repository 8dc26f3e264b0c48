#!/usr/bin/env bash
# Every shell command, at least once on its error path (wrong arguments
# print the usage or a clear error, and fail the run) and, for the ones no
# other scenario uses, once on its happy path.  A command that help lists
# but this file does not name fails the test: new commands come with tests.
. "$(dirname "$0")/lib.bash"

# name: an invocation that must fail with the given output.
errors=(
	"ahcireset|ahcireset|^usage: ahcireset"
	"apic|apic x|^usage: apic$"
	"cpus|cpus x|^usage: cpus$"
	"bench|bench|^usage: bench"
	"blkdiscard|blkdiscard|^usage: blkdiscard"
	"blkid|blkid nosuch|^blkid: nosuch: no such block device"
	"blkzeroout|blkzeroout nosuch|^blkzeroout: nosuch: no such block device"
	"blktrace|blktrace|^usage: blktrace"
	"buffers|buffers x|^usage: buffers$"
	"cat|cat|^usage: cat PATH"
	"cp|cp a|^usage: cp SRC DST"
	"crash|crash x|^usage: crash"
	"crashload|crashload /nosuch 1 5|^crashload: /nosuch: not a mounted filesystem"
	"crashload-args|crashload /x|^usage: crashload MNT SEED N"
	"date|date x|^usage: date$"
	"dd|dd|^usage: dd if="
	"df|df x|^usage: df$"
	"diskinfo|diskinfo nosuch|^diskinfo: nosuch: no such block device"
	"dmesg|dmesg x|^usage: dmesg$"
	"echo|nosuchcommand|^nosuchcommand: command not found"
	"elevator|elevator|^usage: elevator"
	"exit|exit x|^usage: exit$"
	"fbcon|fbcon x|^usage: fbcon$"
	"fill|fill|^usage: fill"
	"fsbench|fsbench|^usage: fsbench"
	"fsmix|fsmix /nosuch 1 5|^fsmix: mkdir /nosuch/mix: "
	"fsmix-args|fsmix /x 1 5 cpus=0|^usage: fsmix DIR SEED N"
	"help|help nosuch|^help: no command nosuch"
	"hexdump|hexdump|^usage: hexdump"
	"ide|ide x|^usage: ide$"
	"iostat|iostat 0|^usage: iostat"
	"irqs|irqs x|^usage: irqs$"
	"irqcpu|irqcpu 5|^usage: irqcpu"
	"irqcpu-unused|irqcpu nosuch 0|^irqcpu: IRQ nosuch is not in use"
	"irqcpu-offline|irqcpu timer 9|^irqcpu: CPU 9 is not online"
	"lockstat|lockstat x|^usage: lockstat"
	"lscpu|lscpu x|^usage: lscpu$"
	"ln|ln|^usage: ln"
	"on|on|^usage: on"
	"logw|logw create nosuch sda|logw0: nosuch: no such block device"
	"logw-args|logw frob|^usage: logw create DEV LOG"
	"logw-stop|logw stop logw9|^logw: logw9: no such recorder"
	"ls|ls /nosuch|^ls: .*no such file or directory"
	"lsblk|lsblk nosuch|^lsblk: nosuch: no such block device"
	"lspci|lspci -d 8086|^lspci: bad -d 8086: want"
	"lsusb|lsusb -x|^usage: lsusb \\[-t\\]$"
	"meminfo|meminfo x|^usage: meminfo$"
	"mkdir|mkdir|^usage: mkdir"
	"mount|mount nosuch /x|^mount: .*no such device"
	"mount-option|mount ram0 /x commit=abc|^mount: unknown option 'commit=abc'"
	"mv|mv a|^usage: mv"
	"on-offline|on 63 cpus|^on: CPU 63 is not online \\(see cpus\\)$"
	"on-args|on 0|^usage: on CPU COMMAND"
	"params|params x|^usage: params$"
	"part|part|^usage: part"
	"poweroff|poweroff x|^usage: poweroff$"
	"profile|profile|^usage: profile"
	"reboot|reboot x|^usage: reboot$"
	"report|report x|^usage: report$"
	"rereadpt|rereadpt|^usage: rereadpt"
	"rm|rm|^usage: rm"
	"rmdir|rmdir|^usage: rmdir"
	"selftest|selftest|^usage: selftest"
	"sha256sum|sha256sum|^usage: sha256sum"
	"stat|stat|^usage: stat"
	"stress|stress|^usage: stress"
	"stress-nodev|stress nosuch|^stress: nosuch: no such block device"
	"stress-args|stress ram0 at=5|^usage: stress"
	"stress-cpus|stress ram0 cpus=0|^stress: cpus=0: want 1 to 64, or all$"
	"sync|sync x|^usage: sync$"
	"fsync|fsync|^usage: fsync PATH$"
	"fsync-nofile|fsync /nonexistent|^fsync: /nonexistent: "
	"umount|umount|^usage: umount"
	"uptime|uptime x|^usage: uptime$"
	"write|write|^usage: write"
)

# Every command help lists must be named above.
boot commands-help --timeout 60 --cmdline 'run=help'
listed=$(sed -n 's/^  \([a-z0-9]*\) .*/\1/p' "$out" | sort -u)
for c in $listed; do
	found=0
	for e in "${errors[@]}"; do
		[ "${e%%|*}" = "$c" ] && found=1
	done
	if [ $found = 1 ]; then ok "commands/$c/listed"; else notok "commands/$c/listed" "no error-path case in commands.sh"; fi
done

# One boot per case would be slow: run them all in one, each must print its line.
cmds=""
for e in "${errors[@]}"; do
	rest=${e#*|}
	cmds+="${rest%%|*}; "
done
boot commands-errors --timeout 120 --cmdline "run=\"$cmds\""
expect_rc "commands/errors-fail-the-run" 1
for e in "${errors[@]}"; do
	name=${e%%|*}
	want=${e##*|}
	expect_out "commands/$name/error-path" "$want"
done

# Happy paths of the commands no other scenario runs.
boot commands-happy --timeout 60 --cmdline 'run="apic; buffers; cpus; date; dmesg; irqs; lspci; lspci -d 8086::0101; meminfo; params; uptime; selftest -l; profile bench nullb0 randread:qd=1:bs=4K:ios=30000; echo the end"'
expect_rc "commands/happy-paths" 0
expect_out "commands/apic/ok" 'local APIC|8259'
expect_out "commands/buffers/ok" '^buffer cache: '
expect_out "commands/date/ok" '^20[0-9]{2}-[01][0-9]-[0-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-5][0-9] UTC$'
expect_out "commands/dmesg/ok" 'storage stack kernel booting'
expect_out "commands/cpus/ok" '^CPU  APIC  STATE +TICKS$'
expect_out "commands/irqs/ok" '^IRQ +CHIP +COUNT +HANDLERS$'
expect_out "commands/lspci/ok" '^00:00\.0 8086:1237'
# -d keeps the IDE controller alone: its line once, the host bridge's once.
n=$(grep -c '^00:01\.1 8086:7010 0101' "$out")
[ "$n" = 2 ] && ok "commands/lspci-d/ok" || notok "commands/lspci-d/ok" "IDE controller listed $n times, want 2"
n=$(grep -c '^00:00\.0 8086:1237' "$out")
[ "$n" = 1 ] && ok "commands/lspci-d/filters" || notok "commands/lspci-d/filters" "host bridge listed $n times, want 1"
expect_out "commands/meminfo/ok" '^Zone +total +free'
expect_out "commands/params/ok" '^  writable +'
expect_out "commands/selftest-list/ok" '^kernel/time/tick$'
expect_out "commands/echo/ok" '^the end$'
# The profile of a block benchmark: the command ran, samples were taken and
# grouped by function, and the block layer's submission path is among them.
expect_out "commands/profile/ran" '^BENCH randread qd=1 bs=4K .* ios=30000 '
expect_out "commands/profile/samples" '^profile: [1-9][0-9]* samples in [0-9]+ ms$'
expect_out "commands/profile/functions" '^ +[0-9]+\.[0-9] +[0-9]+ +(submit_bio|blk_[a-z_]+|bio_[a-z_]+|bench_[a-z_]+)$'

# stress by time on a RAM disk: reads, writes and flushes mixed, then the sweep.
boot commands-stress --timeout 60 --cmdline 'ram.count=1 ram.size=16M writable=ram0 run="stress ram0 secs=1 span=8 qd=8 seed=3"'
expect_rc "commands/stress/ok" 0
expect_out "commands/stress/mixed" '^STRESS ram0 ios=[0-9]+ reads=[1-9][0-9]* writes=[1-9][0-9]* flushes=[1-9][0-9]* .*seed=3 .*eio=0 bad=0 .*result=PASS$'
