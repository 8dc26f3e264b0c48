#!/usr/bin/env bash
# ext4 extent trees (fs/ext2/extents*.c) against e2fsprogs.
#  - read: images made by mkfs.ext4 -d from host files (1 and 4 KiB
#    blocks, metadata_csum on) read byte-exact against sha256sum; files
#    with depth 0, 1 and 2 trees made by debugfs writing into fragmented
#    free space (debugfs "ex" must show the depth); uninitialized extents
#    made by debugfs fallocate read as zeroes.
#  - checks: a tree block with a bad checksum or a bad magic fails that
#    file with EUCLEAN (117) and leaves the others readable.
#  - write: fscli scripts against tests/host/fsmodel.py on ext2+extent
#    images (new files get extents; random workloads; a big file written
#    into fragmented free space grows a depth 2 tree, then truncates
#    shrink it back), writes into uninitialized extents, and truncates
#    and appends on a deep tree made by debugfs; e2fsck -fn clean and
#    debugfs reading the same bytes after each.
# Images with the mkfs.ext4 defaults mount read-only here until the rest
# of ext4 (inode and bitmap checksums, 64bit) is in; 64bit is turned off.
source "$(dirname "$0")/common.bash"
build_fscli

# mk4 IMG SIZE SRCDIR MKE2FS-OPTIONS...: an ext4 image (mkfs.ext4 defaults but 64bit)
mk4() {
	local img=$1 size=$2 src=$3
	shift 3
	rm -f "$img"
	mke2fs -q -F -t ext4 -O ^64bit -U 01234567-89ab-cdef-0123-456789abcdef \
		-E hash_seed=01234567-89ab-cdef-0123-456789abcdef ${src:+-d "$src"} \
		"$@" "$img" "$size" >/dev/null 2>&1
}

# shas IMG FILE...: what fscli -r prints for "sha /d/FILE" of each, "= RC" lines dropped
shas() {
	local img=$1 f
	shift
	for f in "$@"; do echo "sha /d/$f"; done | $FSCLI -r "$img" 2>>$T/fscli.err | grep -v '^=\|^mount'
}

# host_shas DIR FILE...: the same lines from the host files
host_shas() {
	local dir=$1 f
	shift
	for f in "$@"; do echo "$(sha256sum < "$dir/$f" | cut -d' ' -f1)  /d/$f"; done
}

# depth IMG FILE: the depth of FILE's extent tree as debugfs shows it
depth() {
	debugfs -R "ex /$2" "$1" 2>/dev/null | awk 'NR == 2 { split($1, a, "/"); print $2 + 0 }'
}

# ---- read: mkfs.ext4 -d ----
mkdir -p $T/src
head -c 5000001 /dev/urandom > $T/src/big
echo small > $T/src/small
truncate -s 12M $T/src/sparse
printf middle | dd of=$T/src/sparse bs=1 seek=5000000 conv=notrunc 2>/dev/null
printf end | dd of=$T/src/sparse bs=1 seek=12000000 conv=notrunc 2>/dev/null
head -c 70000 /dev/urandom > $T/src/odd
mkdir -p $T/src/sub
for i in $(seq 1 300); do echo "entry $i" > $T/src/sub/file-with-a-longer-name-$i; done
files="big small sparse odd sub/file-with-a-longer-name-1 sub/file-with-a-longer-name-300"
for b in 1024 4096; do
	mk4 $T/r.img 64M $T/src -b $b
	check "read_b$b/flags_are_extents" sh -c "debugfs -R 'stat /big' $T/r.img 2>/dev/null | grep -q 'Flags: 0x80000'"
	# shellcheck disable=SC2086
	check "read_b$b/sha_equal" cmp <(shas $T/r.img $files) <(host_shas $T/src $files)
	# a directory of several blocks, itself mapped by extents
	check "read_b$b/dir_lists_all" test "$(echo "ls /d/sub" | $FSCLI -r $T/r.img 2>/dev/null | grep -c file-with)" -eq 300
done

# ---- deep trees: fragment the free space, then debugfs writes a big file ----
# frag IMG NFILES: NFILES one-block files, every other one removed
frag() {
	local img=$1 n=$2 i
	for i in $(seq 1 "$n"); do echo "write $T/one f$i"; done > $T/cmds
	for i in $(seq 1 2 "$n"); do echo "rm f$i"; done >> $T/cmds
	debugfs -w -f $T/cmds "$img" >/dev/null 2>&1
}
head -c 1000 /dev/urandom > $T/one
head -c 2000000 /dev/urandom > $T/deep2
head -c 150000 /dev/urandom > $T/deep1
mk4 $T/d.img 16M "" -b 1024 -I 128 -O ^resize_inode,^has_journal
frag $T/d.img 3000
debugfs -w -R "write $T/deep1 deep1" $T/d.img >/dev/null 2>&1
debugfs -w -R "write $T/deep2 deep2" $T/d.img >/dev/null 2>&1
cp $T/src/small $T/small
debugfs -w -R "write $T/small small" $T/d.img >/dev/null 2>&1
check "deep/debugfs_depth1" test "$(depth $T/d.img deep1)" -eq 1
check "deep/debugfs_depth2" test "$(depth $T/d.img deep2)" -ge 2
check "deep/fsck_clean" fsck_clean $T/d.img
check "deep/sha_equal" cmp <(shas $T/d.img deep1 deep2 small) <(host_shas $T deep1 deep2 small)

# ---- checks: corrupt one tree block of deep2 ----
# leafblk IMG FILE LEVEL: the physical block of the first node at LEVEL (1..)
leafblk() {
	debugfs -R "ex /$2" "$1" 2>/dev/null | awk -v l="$3" 'NR > 1 && $1 + 0 == l - 1 && !done { print $8; done = 1 }'
}
blk=$(leafblk $T/d.img deep2 1)
cp $T/d.img $T/c.img
# flip ei_unused of the first index entry of that node: only the checksum can tell
printf '\x55' | dd of=$T/c.img bs=1 seek=$((blk * 1024 + 22)) conv=notrunc 2>/dev/null
printf 'sha /d/deep2\nsha /d/deep1\n' | FSCLI_VERBOSE=1 $FSCLI -r $T/c.img > $T/out 2>&1
check "csum/bad_block_fails_file" grep -q '^= -117' $T/out
check "csum/others_still_read" grep -q "$(sha256sum < $T/deep1 | cut -d' ' -f1)" $T/out
check "csum/reported_with_inode_and_block" grep -q "inode [0-9]*: tree block $blk: checksum mismatch" $T/out
cp $T/d.img $T/c.img
printf '\x00' | dd of=$T/c.img bs=1 seek=$((blk * 1024)) conv=notrunc 2>/dev/null
printf 'sha /d/deep2\n' | $FSCLI -r $T/c.img > $T/out 2>&1
check "magic/bad_magic_fails_file" grep -q '^= -117' $T/out

# ---- uninitialized extents ----
mkimg $T/u.img 16M "" -b 1024 -O extent
debugfs -w -f - $T/u.img >/dev/null 2>&1 <<EOF2
write /dev/null u
fallocate /u 0 399
sif /u size 409600
write /dev/null v
fallocate /v 0 99
sif /v size 102400
EOF2
check "uninit/debugfs_made_uninit" sh -c "debugfs -R 'ex /u' $T/u.img 2>/dev/null | grep -q Uninit"
head -c 409600 /dev/zero > $T/zu
check "uninit/reads_zeroes" cmp <(shas $T/u.img u) <(host_shas $T zu | sed 's|/d/zu|/d/u|')
cat > $T/uw <<'SCRIPT'
pwrite /d/u 100000 middle-of-the-unwritten
fill /d/u 5000 3 0
fill /d/u 3000 4 5000
fill /d/u 2048 5 407552
pwrite /d/v 0 first
truncate /d/v 50000
SCRIPT
$FSCLI $T/u.img < $T/uw > $T/out 2>&1
check "uninit/fscli_clean_exit" test $? -eq 0
python3 - $T/zu $T/zv <<'PY'
import sys
sys.path.insert(0, "tools")
import fillgen
u = bytearray(409600)
def put(off, data):
    u[off:off + len(data)] = data
put(100000, b"middle-of-the-unwritten")
put(0, fillgen.fill(5000, 3, 0))
put(5000, fillgen.fill(3000, 4, 5000))
put(407552, fillgen.fill(2048, 5, 407552))
open(sys.argv[1], "wb").write(u)
v = bytearray(50000)
v[0:5] = b"first"
open(sys.argv[2], "wb").write(v)
PY
check "uninit/fsck_clean" fsck_clean $T/u.img
debugfs -R "dump /u $T/du" $T/u.img >/dev/null 2>&1
debugfs -R "dump /v $T/dv" $T/u.img >/dev/null 2>&1
check "uninit/debugfs_reads_written" cmp $T/du $T/zu
check "uninit/truncated_reads" cmp $T/dv $T/zv
check "uninit/unwritten_parts_stay_uninit" sh -c "debugfs -R 'ex /u' $T/u.img 2>/dev/null | grep -q Uninit"
check "uninit/fscli_reads_written" cmp <(shas $T/u.img u) <(host_shas $T zu | sed 's|/d/zu|/d/u|')

# ---- writes against the model, on ext2 + extent ----
cp tests/host/basic.fsops $T/basic
for v in "b1k:-b 1024" "b4k:-b 4096"; do
	name=${v%%:*}
	# shellcheck disable=SC2086
	mkimg $T/w.img 64M "" ${v#*:} -O extent
	check "write_$name/basic_matches_model" python3 tests/host/fsmodel.py run $T/w.img $T/basic
	check "write_$name/new_files_have_extents" sh -c "debugfs -R 'stat /b' $T/w.img 2>/dev/null | grep -q 'Flags: 0x80000'"
	for seed in 1 2; do
		python3 tests/host/fsmodel.py random $seed 300 > $T/rnd
		# shellcheck disable=SC2086
		mkimg $T/w.img 32M "" ${v#*:} -O extent
		check "write_$name/random_$seed" python3 tests/host/fsmodel.py run $T/w.img $T/rnd
	done
done

# Our own deep tree: small files fragment the free space, a big file
# grows to depth 2 by splits, then truncates trim and shrink it.
{
	for i in $(seq 1 1500); do echo "write /d/f$i x"; done
	for i in $(seq 1 2 1500); do echo "rm /d/f$i"; done
	echo "fill /d/big 1500000 5"
	echo "sha /d/big"
	echo "remount"
	echo "sha /d/big 1000 1000000"
} > $T/grow
mkimg $T/g.img 16M "" -b 1024 -O extent
check "grow/matches_model" python3 tests/host/fsmodel.py run $T/g.img $T/grow
check "grow/depth_2" test "$(depth $T/g.img big)" -ge 2
printf 'truncate /d/big 700001\nsha /d/big\nfill /d/big 300000 6 900000\nsha /d/big\ntruncate /d/big 3000\nsha /d/big\n' > $T/shrink
cp $T/grow $T/all
cat $T/shrink >> $T/all
mkimg $T/g.img 16M "" -b 1024 -O extent
check "shrink/matches_model" python3 tests/host/fsmodel.py run $T/g.img $T/all
check "shrink/depth_0_again" test "$(depth $T/g.img big)" -eq 0

# A deep tree made by debugfs, changed by us.
mkimg $T/e.img 16M "" -b 1024 -O extent
frag $T/e.img 3000
debugfs -w -R "write $T/deep2 deep2" $T/e.img >/dev/null 2>&1
check "theirs/debugfs_depth2" test "$(depth $T/e.img deep2)" -ge 2
printf 'truncate /d/deep2 1234567\nfill /d/deep2 200000 9 1500000\nsync\n' | $FSCLI $T/e.img > $T/out 2>&1
check "theirs/fscli_clean_exit" test $? -eq 0
python3 - $T/deep2 $T/deep2x <<'PY'
import sys
sys.path.insert(0, "tools")
import fillgen
d = bytearray(open(sys.argv[1], "rb").read()[:1234567])
d += bytes(1500000 - len(d))
d += fillgen.fill(200000, 9, 1500000)
open(sys.argv[2], "wb").write(d)
PY
check "theirs/fsck_clean" fsck_clean $T/e.img
debugfs -R "dump /deep2 $T/dd" $T/e.img >/dev/null 2>&1
check "theirs/debugfs_reads_same" cmp $T/dd $T/deep2x

# ---- with a journal (ext3 + extent): tree blocks go through the journal ----
for seed in 3 4; do
	python3 tests/host/fsmodel.py random $seed 300 > $T/rnd
	mkimg $T/j.img 32M "" -b 1024 -O extent,has_journal
	check "journal/random_$seed" python3 tests/host/fsmodel.py run $T/j.img $T/rnd
done
mkimg $T/j.img 16M "" -b 1024 -O extent,has_journal
check "journal/grow_and_shrink" python3 tests/host/fsmodel.py run $T/j.img $T/all

# ---- far blocks: logical blocks past 2^20 and 2^28 on 4 KiB blocks ----
mkimg $T/f.img 64M "" -b 4096 -O extent
printf '%s\n' "fill /d/far 4096 11 0" "fill /d/far 8192 12 4294967296" \
	"fill /d/far 4096 13 1099511627776" "remount" "sha /d/far 4294967296 8192" \
	"sha /d/far 1099511627776 4096" "sha /d/far 8192 4096" | $FSCLI $T/f.img > $T/out
check "far/fscli_clean_exit" test $? -eq 0
python3 - > $T/want <<'PY'
import hashlib, sys
sys.path.insert(0, "tools")
import fillgen
print(hashlib.sha256(fillgen.fill(8192, 12, 4294967296)).hexdigest() + "  /d/far")
print(hashlib.sha256(fillgen.fill(4096, 13, 1099511627776)).hexdigest() + "  /d/far")
print(hashlib.sha256(bytes(4096)).hexdigest() + "  /d/far")
PY
check "far/reads_back" cmp <(grep '/d/far' $T/out) $T/want
check "far/fsck_clean" fsck_clean $T/f.img
debugfs -R "ex /far" $T/f.img > $T/ex 2>/dev/null
check "far/extent_at_4GiB" grep -Eq '1048576 - +1048577' $T/ex
check "far/extent_at_1TiB" grep -Eq '268435456 - +268435456|268435456 +[0-9]+ +1 *$' $T/ex

# ---- layout: a 16 MiB file written in one go is one extent in i_block ----
mkimg $T/l.img 64M "" -b 4096 -O extent
echo "fill /d/l 16777216 3" | $FSCLI $T/l.img > $T/out
check "layout/fscli_clean_exit" test $? -eq 0
check "layout/one_extent" test "$(debugfs -R "ex /l" $T/l.img 2>/dev/null | grep -c '^ *0/ *0')" -eq 1
check "layout/fsck_clean" fsck_clean $T/l.img
