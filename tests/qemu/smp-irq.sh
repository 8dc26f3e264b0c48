#!/usr/bin/env bash
# Interrupts spread over the CPUs, and NVMe and virtio-blk with a queue per
# CPU (-smp 2 and -smp 4, q35):
#  - the drivers say how many queues they set up: one per CPU for NVMe
#    (as many as the controller grants) and for virtio-blk with
#    num-queues=4; one with nosmp, one with a single MSI vector, and as
#    many as the MSI-X vectors allow when the device has too few;
#  - after the LBA-stamped stress from every CPU (cpus=all, checked in the
#    guest and sector by sector in the image), `irqs` shows each queue's
#    vector steered to its own CPU and its interrupts counted there, on
#    every CPU;
#  - irqcpu moves a live MSI-X vector to another CPU, whose count then
#    grows while the disk keeps working;
#  - a PCI INTx line through the I/O APIC (AHCI without MSI) is steered to
#    a CPU, counted there, and `apic` shows the destination; the ISA
#    lines (timer, serial) stay on the boot CPU;
#  - the kernel/irq self-tests pass on four CPUs.
. "$(dirname "$0")/nvme-lib.bash"

# From the last boot's `irqs`: irq_cpu_of HANDLER prints the CPU the line
# goes to ("to cpu C" on the line after HANDLER's); irq_count_on HANDLER
# CPU prints what that CPU took; expect_irq_on NAME HANDLER CPU passes when
# the line goes to CPU and CPU took some of it.
irq_cpu_of() {
	awk -v h="$1" '
		found { if (match($0, /to cpu [0-9]+/)) print substr($0, RSTART + 7, RLENGTH - 7); exit }
		$NF == h && $1 ~ /^[0-9]+$/ { found = 1 }' "$out"
}
irq_count_on() {
	awk -v h="$1" -v c="cpu$2:" '
		found { n = split($0, f, " "); for (i = 1; i <= n; i++) if (index(f[i], c) == 1) { print substr(f[i], length(c) + 1); exit } print 0; exit }
		$NF == h && $1 ~ /^[0-9]+$/ { found = 1 }' "$out"
}
expect_irq_on() {
	local to n
	to=$(irq_cpu_of "$2")
	n=$(irq_count_on "$2" "$3")
	if [ "$to" = "$3" ] && [ "${n:-0}" -gt 0 ]; then
		ok "$1"
	else
		notok "$1" "$2: to cpu '${to}', ${n:-0} taken on cpu $3 (see $out)"
	fi
}

for n in 2 4; do
	img=$imgdir/nvme-smp$n.raw
	truncate -s 96M "$img"
	boot smp-irq-nvme-$n --machine q35 --timeout 400 --disk "$img,bus=nvme" \
		--cmdline "writable=all run=\"stress nvme0n1 span=64 off=8 seed=3$n qd=64 cpus=all; irqs; diskinfo nvme0n1\"" \
		-- -smp $n
	expect_rc "smp-irq/nvme-$n/run" 0
	expect_out "smp-irq/nvme-$n/queues" "\] nvme0: $n I/O queues \($n wanted, $n CPUs online\)"
	expect_out "smp-irq/nvme-$n/diskinfo" "^ *queues $n depth [0-9]+, msi-x$"
	c=$(grep -c '^STRESS nvme0n1 .*result=PASS$' "$out")
	[ "$c" = "$n" ] && ok "smp-irq/nvme-$n/stress-every-cpu" ||
		notok "smp-irq/nvme-$n/stress-every-cpu" "$c of $n stress slices passed (see $out)"
	for ((q = 1; q <= n; q++)); do
		expect_irq_on "smp-irq/nvme-$n/q$q-on-cpu$((q - 1))" "nvme0q$q" $((q - 1))
	done
	expect_no_out "smp-irq/nvme-$n/no-errors" 'nvme0n1: (READ|WRITE|FLUSH)|timed out|resetting'
	stamp_check "smp-irq/nvme-$n/host-verify" "$img" 3$n 8 64
done

# Four virtio queues on four CPUs, each vector on its own CPU.
img=$imgdir/virtio-smp4.raw
truncate -s 96M "$img"
boot smp-irq-virtio-4 --machine q35 --timeout 400 --disk "$img,bus=virtio,dev.num-queues=4" \
	--cmdline 'writable=all run="stress vda span=64 off=8 seed=44 qd=64 cpus=all; irqs"' -- -smp 4
expect_rc "smp-irq/virtio-4/run" 0
expect_out "smp-irq/virtio-4/queues" '\] vda: virtio-blk .*, 4/4 queues, depth [0-9]+, MSI-X'
c=$(grep -c '^STRESS vda .*result=PASS$' "$out")
[ "$c" = 4 ] && ok "smp-irq/virtio-4/stress-every-cpu" ||
	notok "smp-irq/virtio-4/stress-every-cpu" "$c of 4 stress slices passed (see $out)"
for q in 0 1 2 3; do
	expect_irq_on "smp-irq/virtio-4/q$q-on-cpu$q" "vda-q$q" $q
done
stamp_check "smp-irq/virtio-4/host-verify" "$img" 44 8 64

# Too few MSI-X vectors (3: config + 2): two queues, not four sharing one.
img=$imgdir/virtio-short.raw
truncate -s 32M "$img"
boot smp-irq-virtio-short --machine q35 --timeout 300 \
	--disk "$img,bus=virtio,dev.num-queues=4,dev.vectors=3" \
	--cmdline 'writable=all run="stress vda span=16 seed=45 qd=32 cpus=all; irqs"' -- -smp 4
expect_rc "smp-irq/virtio-short/run" 0
expect_out "smp-irq/virtio-short/two-queues" '\] vda: virtio-blk .*, 2/4 queues, depth [0-9]+, MSI-X'
expect_irq_on "smp-irq/virtio-short/q1-on-cpu1" vda-q1 1
stamp_check "smp-irq/virtio-short/host-verify" "$img" 45 0 16

# nosmp: one queue each, everything on CPU 0.
a=$imgdir/nosmp-nvme.raw b=$imgdir/nosmp-virtio.raw
truncate -s 32M "$a" "$b"
boot smp-irq-nosmp --machine q35 --timeout 300 --disk "$a,bus=nvme" \
	--disk "$b,bus=virtio,dev.num-queues=4" \
	--cmdline 'nosmp writable=all run="stress nvme0n1 span=16 seed=46 qd=64; stress vda span=16 seed=47 qd=64; irqs"' -- -smp 4
expect_rc "smp-irq/nosmp/run" 0
expect_out "smp-irq/nosmp/nvme-one-queue" '\] nvme0: 1 I/O queue \(1 wanted, 1 CPU online\)'
expect_out "smp-irq/nosmp/virtio-one-queue" '\] vda: virtio-blk .*, 1/4 queues'
expect_no_out "smp-irq/nosmp/no-other-cpu" 'to cpu [1-9]|cpu[1-9]:'
stamp_check "smp-irq/nosmp/nvme-host-verify" "$a" 46 0 16
stamp_check "smp-irq/nosmp/virtio-host-verify" "$b" 47 0 16

# Single MSI (no MSI-X): one queue, one vector steered round robin.
img=$imgdir/nvme-msi.raw
truncate -s 32M "$img"
boot smp-irq-nvme-msi --machine q35 --timeout 300 --disk "$img,bus=nvme" \
	--cmdline 'nvme.msix=0 writable=all run="stress nvme0n1 span=16 seed=48 qd=64 cpus=all; diskinfo nvme0n1"' -- -smp 2
expect_rc "smp-irq/nvme-msi/run" 0
expect_out "smp-irq/nvme-msi/one-queue" '\] nvme0: 1 I/O queue \(1 wanted, 2 CPUs online\)'
stamp_check "smp-irq/nvme-msi/host-verify" "$img" 48 0 16

# A live MSI-X vector moved: queue 2 from CPU 1 to CPU 0, the disk still
# works and CPU 0 now takes its interrupts.
img=$imgdir/nvme-move.raw
truncate -s 32M "$img"
boot smp-irq-move --machine q35 --timeout 300 --disk "$img,bus=nvme" \
	--cmdline 'writable=all run="stress nvme0n1 span=16 seed=49 qd=32 cpus=all; irqcpu nvme0q2 0; stress nvme0n1 span=16 seed=50 qd=32 cpus=all; irqs"' \
	-- -smp 2
expect_rc "smp-irq/move/run" 0
expect_out "smp-irq/move/said" '^irq [0-9]+: to cpu 0$'
expect_irq_on "smp-irq/move/q2-now-on-cpu0" nvme0q2 0
n=$(irq_count_on nvme0q2 1)
[ "${n:-0}" -gt 0 ] && ok "smp-irq/move/q2-was-on-cpu1" ||
	notok "smp-irq/move/q2-was-on-cpu1" "no interrupts of nvme0q2 on cpu 1 before the move"
c=$(grep -c '^STRESS nvme0n1 .*result=PASS$' "$out")
[ "$c" = 4 ] && ok "smp-irq/move/stress" || notok "smp-irq/move/stress" "$c of 4 passed"
stamp_check "smp-irq/move/host-verify" "$img" 50 0 16

# An I/O APIC line: AHCI without MSI on q35 (a PCI INTx, GSI 16-23), steered
# to a CPU and counted there; the timer stays on CPU 0.
img=$imgdir/ahci-intx.raw
truncate -s 32M "$img"
boot smp-irq-ioapic --machine q35 --timeout 300 --disk "$img,bus=ahci" \
	--cmdline 'ahci.msi=0 writable=all run="stress sda span=16 seed=51 qd=32 cpus=all; irqs; apic"' -- -smp 2
expect_rc "smp-irq/ioapic/run" 0
cpu=$(irq_cpu_of ahci0)
expect_irq_on "smp-irq/ioapic/ahci-counted-where-steered" ahci0 "${cpu:-x}"
expect_irq_on "smp-irq/ioapic/timer-on-cpu0" timer 0
expect_out "smp-irq/ioapic/apic-dest" '^ *[0-9]+ +[0-9]+ +[0-9]+ +level +low +no +apic [0-9]+$'
stamp_check "smp-irq/ioapic/host-verify" "$img" 51 0 16

# The irq layer's own self-tests on four CPUs: a vector taken and counted
# on each CPU it is sent to, steering refused for offline CPUs and local
# vectors, and free_irq waiting for a handler still running elsewhere.
boot smp-irq-selftest --machine q35 --timeout 120 --cmdline 'selftest=kernel/irq/*' -- -smp 4
expect_rc "smp-irq/selftest/run" 0
expect_out "smp-irq/selftest/summary" '^selftest: [1-9][0-9]* passed, 0 failed'
expect_out "smp-irq/selftest/per-cpu" '^irq: 4 CPUs each took the test vector and counted it as theirs$'
expect_out "smp-irq/selftest/free-waits" '^irq: free_irq waited for the handler running on CPU [1-3]$'
