#!/usr/bin/env bash
# I/O from every CPU on four kinds of disk at once: one boot with -smp 2
# (1280 MiB, so stress's buffers come from highmem too) and one with
# -smp 4, each with an AHCI disk (an ich9-ahci on the pc
# machine), an IDE disk, an NVMe and a virtio disk.  One stress command
# keeps all four busy from every CPU at the same time: each CPU stamps,
# rereads and checks its own slice of the same range on every disk.
#
# Checked afterwards: one PASS line per (CPU, disk) pair with writes and
# checks in it, every CPU on every disk, the slices tiling the range, all
# the shares running at once; then the host reads each image: every
# sector of the range holds its LBA and the run's seed (a share that
# wrote nothing or wrote wrong data leaves sectors that fail), and the
# sectors around the range are still zero.
. "$(dirname "$0")/lib.bash"

img=$logdir/smp-io
rm -rf "$img" && mkdir -p "$img"

buses=(ahci ide nvme virtio)
devs=(sda hda nvme0n1 vda)		# what the kernel names each, in order
off=2048 span=16384			# sectors: 8 MiB from 1 MiB on
size=16M

# run N MEM SEED IOS: stress every disk from each of N CPUs, then check.
run() {
	local n=$1 mem=$2 seed=$3 ios=$4 t=smp-io/$1cpus i d c lines args=()
	for i in "${!buses[@]}"; do
		truncate -s $size "$img/$n-${buses[i]}.raw"
		args+=(--disk "$img/$n-${buses[i]}.raw,bus=${buses[i]}")
	done
	local list
	list=$(IFS=,; echo "${devs[*]}")
	boot smp-io-$n --machine pc --mem "$mem" --timeout 300 "${args[@]}" \
		--cmdline "writable=$list run=\"stress $list cpus=all ios=$ios qd=16 off=${off}s span=${span}s seed=$seed\"" \
		-- -smp "$n"
	expect_rc "$t/run" 0
	expect_out "$t/online" "smp: $n of $n CPUs online"
	expect_no_out "$t/no-io-errors" '^STRESS (eio|bad) '
	expect_no_out "$t/no-driver-errors" '(failed|timed out|refusing|panic|stuck)'

	for i in "${!devs[@]}"; do
		d=${devs[i]}
		lines=$(grep -E "^STRESS $d ios=" "$out")
		for ((c = 0; c < n; c++)); do
			local got
			got=$(echo "$lines" | grep -cE " writes=[1-9][0-9]* .* seed=$seed .* checked=[1-9][0-9]* eio=0 bad=0 .* cpu=$c start=[0-9]+ ms=[0-9]+ result=PASS$")
			if [ "$got" = 1 ]; then
				ok "$t/$d/cpu$c"
			else
				notok "$t/$d/cpu$c" "$got PASS lines from CPU $c with writes and checks, want 1 (see $out)"
			fi
		done
		# The shares' slices, in order, cover [off, off+span) exactly.
		if echo "$lines" | sed -E 's/.* off=([0-9]+) sectors=([0-9]+) .*/\1 \2/' | sort -n |
			awk -v want=$off -v end=$((off + span)) -v n="$n" '
				$1 != want { exit 1 } { want = $1 + $2; k++ }
				END { exit !(k == n && want == end) }'; then
			ok "$t/$d/slices-tile-the-range"
		else
			notok "$t/$d/slices-tile-the-range" "off/sectors of the $d lines do not tile $off+$span in $n pieces (see $out)"
		fi
		lba_check "$t/$d/host-check" "$img/$n-${buses[i]}.raw" "$seed" $off $span \
			--zero 0:$off --zero $((off + span)):$((16 * 2048 - off - span))
	done

	# Every share was running while every other one was: the latest start
	# comes before the earliest end.
	if grep -E '^STRESS [a-z0-9]+ ios=' "$out" | sed -E 's/.* start=([0-9]+) ms=([0-9]+) .*/\1 \2/' |
		awk '{ if ($1 > s) s = $1; e1 = $1 + $2; if (!k++ || e1 < e) e = e1 }
		     END { exit !(k && s < e) }'; then
		ok "$t/all-at-once"
	else
		notok "$t/all-at-once" "a share started after another had ended (see $out)"
	fi
}

run 2 1280M 31 1500
# Four vCPUs on a two-core host spin on each other's locks (ticket order
# waits for a vCPU the host has not scheduled): fewer random I/Os keep the
# boot well inside its time with another scenario running beside it.
run 4 256M 32 300
