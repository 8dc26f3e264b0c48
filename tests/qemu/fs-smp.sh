#!/usr/bin/env bash
# ext2 (and ext4) under several CPUs at once (issue 19), judged by
# e2fsprogs: `fsmix` runs a random workload from every CPU in one shared
# directory -- each CPU creating, appending, renaming, unlinking, reading
# back and listing its own names, and writing its own chunks of shared
# files that all CPUs read and check as they go -- then prints its model
# (one "FSMIX F path size crc32" line a file) and syncs; the run unmounts
# and powers off.  On the host: e2fsck -fn is clean, every file of the
# model has exactly that size and CRC-32 (debugfs dump, zlib), and the
# directory holds no other name.  With -smp 2 on an ext2 disk, and with
# -smp 4 on an ext2 and an ext4 disk.
. "$(dirname "$0")/lib.bash"
export PATH=$PATH:/usr/sbin:/sbin E2FSPROGS_FAKE_TIME=1700000000

dir=$logdir/fs-smp
rm -rf "$dir" && mkdir -p "$dir"
OPS=${FSMIX_OPS:-1000}

# check NAME IMG MNT: the image after a run whose output is $out, against its FSMIX lines for MNT.
check() {
	local name=$1 img=$2 mnt=$3 why
	e2fsck -fn "$img" >"$img.fsck" 2>&1 && ok "$name/e2fsck_clean" ||
		notok "$name/e2fsck_clean" "$(grep -v '^Pass\|^e2fsck' "$img.fsck" | head -3 | tr '\n' ' ')"
	grep "^FSMIX F /$mnt/" "$out" >"$img.model"
	if why=$(python3 - "$img" "$mnt" "$img.model" 2>&1 <<'PY'
import subprocess, sys, zlib, os
img, mnt, model = sys.argv[1:4]
want = {}
for line in open(model):
    _, _, path, size, crc = line.split()
    want[path[len(mnt) + 1:]] = (int(size), int(crc, 16))
if not want:
    sys.exit("no FSMIX F lines")
bad = []
for path, (size, crc) in sorted(want.items()):
    tmp = img + ".dump"
    if os.path.exists(tmp):
        os.unlink(tmp)
    subprocess.run(["debugfs", "-R", "dump %s %s" % (path, tmp), img],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    data = open(tmp, "rb").read() if os.path.exists(tmp) else None
    if data is None or len(data) != size or zlib.crc32(data) != crc:
        bad.append("%s: %s, model %d %08x" % (path, "missing" if data is None else
                   "%d %08x" % (len(data), zlib.crc32(data)), size, crc))
ls = subprocess.run(["debugfs", "-R", "ls -l /mix", img], capture_output=True, text=True).stdout
names = {l.split()[-1] for l in ls.splitlines() if l.split() and l.split()[0] != "0"} - {".", ".."}
model = {p.split("/")[-1] for p in want}
if names != model:
    bad.append("names not in the model: %s; model names missing: %s" %
               (sorted(names - model)[:5], sorted(model - names)[:5]))
if bad:
    sys.exit("; ".join(bad[:4]))
print(len(want))
PY
	); then ok "$name/model_${why}_files_match"; else notok "$name/model_matches" "$why"; fi
}

for n in 2 4; do
	mkfs.ext2 -q -F "$dir/e2-$n.img" 64M >"$dir/make.log" 2>&1
	disks=(--disk "$dir/e2-$n.img,bus=ahci")
	cmds="fsmix /sda $n $OPS cpus=all"
	if [ $n = 4 ]; then
		mkfs.ext4 -q -F "$dir/e4.img" 64M >>"$dir/make.log" 2>&1
		disks+=(--disk "$dir/e4.img,bus=ahci")
		cmds="$cmds; fsmix /sdb 7 $OPS cpus=all"
	fi
	[ -s "$dir/e2-$n.img" ] || { notok "fs-smp/$n/images" "mkfs failed (see $dir/make.log)"; continue; }
	boot fs-smp-$n --machine q35 --mem 512M --timeout 900 "${disks[@]}" \
		--cmdline "writable=all run=\"$cmds\"" -- -smp $n
	expect_rc "fs-smp/$n/run" 0
	expect_out "fs-smp/$n/sda/all_cpus_no_errors" "^FSMIX DONE $((OPS * n)) $n 0\$"
	expect_no_out "fs-smp/$n/no_mismatch" '^fsmix: cpu'
	check "fs-smp/$n/ext2" "$dir/e2-$n.img" sda
	if [ $n = 4 ]; then
		expect_out "fs-smp/4/sdb/ext4_mounted" 'mounted sdb at /sdb'
		check "fs-smp/4/ext4" "$dir/e4.img" sdb
	fi
done
