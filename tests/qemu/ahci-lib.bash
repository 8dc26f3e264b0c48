# Helpers for the AHCI scenarios (tests/qemu/ahci-*.sh), on top of lib.bash:
# images made at test time in $imgdir, and the host-side check of the
# LBA-stamped sectors stress writes (the peer's pattern, block/diag/bench.h).
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

imgdir=$logdir/ahci-img-$(basename "$0" .sh)
rm -rf "$imgdir" && mkdir -p "$imgdir"

# stamp_check NAME IMAGE SEED OFF_MIB MIB [exclude]: lba_check in MiB; with
# "exclude", the sectors of writes the last boot reported failed are left out.
stamp_check() {
	local extra=()
	[ "${6:-}" = exclude ] && extra=(--skip-failed "$out")
	lba_check "$1" "$2" "$3" $(($4 * 2048)) $(($5 * 2048)) "${extra[@]}"
}

# out_value KEY: the number after KEY= on the last STRESS line that has it.
out_value() {
	grep -o "STRESS .*\b$1=[0-9]*" "$out" | tail -1 | sed "s/.*\b$1=//"
}
