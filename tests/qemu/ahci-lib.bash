# Helpers for the AHCI scenarios (tests/qemu/ahci-*.sh), on top of lib.bash:
# images made at test time in $imgdir, and the host-side check of the
# LBA-stamped sectors ahcistress writes (the peer's pattern, block/bench.h).
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

imgdir=$logdir/ahci-img-$(basename "$0" .sh)
rm -rf "$imgdir" && mkdir -p "$imgdir"

# stamp_check NAME IMAGE SEED OFF_MIB MIB [EXCLUDE_FROM_OUT]: every sector of
# [OFF, OFF+MIB) in IMAGE holds the pattern for SEED, except the sectors of
# writes the kernel reported failed ("AHCISTRESS eio op=write lba=L n=N" in
# the last boot's output) when EXCLUDE_FROM_OUT is "exclude".  One TAP line.
stamp_check() {
	local name=$1 img=$2 seed=$3 off=$4 mib=$5 excl=${6:-}
	local res
	res=$(python3 - "$img" "$seed" "$off" "$mib" "$excl" "$out" <<'PY'
import re, struct, sys
img, seed, off, mib, excl, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
M = (1 << 64) - 1
skip = set()
if excl == "exclude":
    for m in re.finditer(r"AHCISTRESS eio op=write lba=(\d+) n=(\d+)", open(out).read()):
        l, n = int(m.group(1)), int(m.group(2))
        skip.update(range(l, l + n))
first = off << 11
bad = checked = 0
with open(img, "rb") as f:
    f.seek(first * 512)
    for lba in range(first, first + (mib << 11)):
        sec = f.read(512)
        if lba in skip:
            continue
        checked += 1
        want = [lba, seed] + [(lba ^ seed ^ ((i * 0x9E3779B97F4A7C15) & M)) & M for i in range(2, 64)]
        if list(struct.unpack("<64Q", sec)) != want:
            if bad < 3:
                print("bad lba %d" % lba, file=sys.stderr)
            bad += 1
print("%d %d %d" % (checked, bad, len(skip)))
PY
)
	set -- $res
	if [ "${2:-x}" = 0 ] && [ "${1:-0}" -gt 0 ]; then
		ok "$name"
	else
		notok "$name" "host check of $img: checked=${1:-?} bad=${2:-?} (see $out)"
	fi
}

# out_value KEY: the number after KEY= on the last AHCISTRESS line that has it.
out_value() {
	grep -o "AHCISTRESS .*\b$1=[0-9]*" "$out" | tail -1 | sed "s/.*\b$1=//"
}
