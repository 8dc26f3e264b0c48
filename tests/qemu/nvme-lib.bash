# Helpers for the NVMe scenarios (tests/qemu/nvme*.sh), on top of lib.bash:
# images made at test time in $imgdir, the host-side check of the
# LBA-stamped sectors stress writes, and the device lines for controllers
# with several namespaces (QEMU's nvme + nvme-ns).
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

imgdir=$logdir/nvme-img-$(basename "$0" .sh)
rm -rf "$imgdir" && mkdir -p "$imgdir"

# stamp_check NAME IMAGE SEED OFF_MIB MIB [exclude]: lba_check in MiB; with
# "exclude", the sectors of writes the last boot reported failed are left out.
stamp_check() {
	local extra=()
	[ "${6:-}" = exclude ] && extra=(--skip-failed "$out")
	lba_check "$1" "$2" "$3" $(($4 * 2048)) $(($5 * 2048)) "${extra[@]}"
}

# nvme_ns_args CTRL_ID CTRL_OPTS IMAGE:BLOCKSIZE[:NS_OPTS]...: QEMU arguments
# for one controller with a namespace per image, NSIDs 1, 2, ... in order.
nvme_ns_args() {
	local id=$1 opts=$2 n=1 spec img bs more
	shift 2
	echo "-device nvme,id=$id,serial=$id$opts"
	for spec in "$@"; do
		IFS=: read -r img bs more <<<"$spec"
		echo "-drive if=none,id=$id-d$n,format=raw,file=$img"
		echo "-device nvme-ns,drive=$id-d$n,bus=$id,nsid=$n,logical_block_size=$bs,physical_block_size=$bs${more:+,$more}"
		n=$((n + 1))
	done
}
