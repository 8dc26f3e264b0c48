#!/usr/bin/env bash
# ext4 read path against the host's tools.  Images made by mkfs.ext4 -d
# from a generated tree, with its defaults (extents, 64bit, flex_bg,
# metadata_csum, huge_file, dir_nlink, extra_isize, a journal) and with
# option sets (1 and 4 KiB blocks, ^64bit, ^metadata_csum (crc16 group
# descriptors), 128-byte inodes, meta_bg, inline_data, large_dir), are
# read through fscli: every file's sha256 must equal the host's, every
# directory listing must equal debugfs 'ls -l', `df` must name the type
# ext4, and a read-only mount must leave the image byte-identical.  Then
# the special layouts: a 10,000-entry htree directory (indexed by
# e2fsck -D), a file whose extent tree has depth >= 2 (free space
# fragmented by removing every other small file before debugfs writes a
# big one), a sparse file with data past 2 TiB, and uninitialized
# extents (debugfs fallocate) that must read as zeroes.
source "$(dirname "$0")/common.bash"
build_fscli

UUID=01234567-89ab-cdef-0123-456789abcdef
# mk4 IMG SIZE SRCDIR OPTIONS...: a reproducible mkfs.ext4 image
mk4() {
	local img=$1 size=$2 src=$3
	shift 3
	rm -f "$img"
	mkfs.ext4 -q -F -U $UUID -E hash_seed=$UUID -L test ${src:+-d "$src"} "$@" \
		"$img" "$size" >"$T/mkfs.out" 2>&1
}
df_type_ext4() { echo df | "$FSCLI" -r "$1" 2>&1 | grep -q ' type=ext4$'; }

# The source tree: sizes around block boundaries, sparse files, tiny files
# (inline with inline_data), links, a directory of 400 long names.
S=$T/src
mkdir -p $S/dir/sub/deeper $S/many $S/empty
for n in 0 1 59 60 61 1023 1024 1025 4095 4096 4097 12288 12289 70000 300000 4300000; do
	python3 tools/fillgen.py $n $n > $S/f$n
done
python3 tools/fillgen.py 6000000 7 > $S/dir/sub/big
truncate -s 9000000 $S/sparse
python3 tools/fillgen.py 5000 8 | dd of=$S/sparse bs=1 seek=4000000 conv=notrunc status=none
python3 tools/fillgen.py 3000 9 | dd of=$S/sparse bs=1 seek=8997000 conv=notrunc status=none
truncate -s 50000000 $S/allhole
echo hello > $S/dir/hello.txt
ln $S/dir/hello.txt $S/dir/hardlink
ln -s hello.txt $S/dir/fastlink
ln -s "$(printf 'long/%.0s' {1..30})target" $S/dir/slowlink
for i in $(seq 1 400); do echo "$i" > $S/many/file-with-a-longish-name-$i; done

variant() {	# variant NAME SIZE MKFS-OPTIONS...
	local name=$1 size=$2
	shift 2
	local img=$T/$name.img
	mk4 "$img" "$size" "$S" "$@" || { notok "$name/mkfs" "$(tail -1 "$T/mkfs.out")"; return; }
	cp "$img" "$T/orig.img"
	check "$name/host_fsck_clean" fsck_clean "$img"
	check "$name/df_type_ext4" df_type_ext4 "$img"
	check "$name/tree_matches_host" python3 tests/host/fsoracle.py tree "$img" "$S"
	check "$name/readonly_unchanged" cmp -s "$img" "$T/orig.img"
	rm -f "$img"
}

variant defaults_4k 600M
variant defaults_small 64M
variant b4k 64M -b 4096
variant b4k_no64bit 64M -b 4096 -O ^64bit
variant b1k_nocsum 64M -b 1024 -O ^metadata_csum
variant b4k_nocsum_no64bit 64M -b 4096 -O ^metadata_csum,^64bit
variant b1k_meta_bg 64M -b 1024 -O ^resize_inode,meta_bg
variant b4k_nojournal 64M -b 4096 -O ^has_journal
variant b1k_inline 64M -b 1024 -O inline_data
variant b4k_large_dir 64M -b 4096 -O large_dir
variant b1k_csum_seed_i128 64M -b 1024 -I 128 -O metadata_csum_seed

# inline_data really used: the tiny files and small directories are inline.
mk4 $T/in.img 64M "$S" -b 4096 -O inline_data
check "inline/host_made_inline_files" sh -c \
	"debugfs -R 'stat /f59' $T/in.img 2>/dev/null | grep -q 'Size of inline data'"
check "inline/host_made_inline_dir" sh -c \
	"debugfs -R 'stat /dir/sub/deeper' $T/in.img 2>/dev/null | grep -q 'Flags: 0x10000000'"

# A 10,000-entry htree directory (e2fsck -D indexes it), with and without large_dir.
H=$T/hsrc
mkdir -p $H/big
for i in $(seq 1 10000); do echo "$i" > $H/big/entry-number-$i; done
for v in "b4k_large_dir:-b 4096 -O large_dir" "b1k_nocsum:-b 1024 -O ^metadata_csum"; do
	name=htree_10000_${v%%:*}
	# shellcheck disable=SC2086
	mk4 $T/h.img 128M "$H" -N 12000 ${v#*:} || { notok "$name/mkfs" "$(tail -1 "$T/mkfs.out")"; continue; }
	e2fsck -fyD $T/h.img >/dev/null 2>&1
	flags=$(debugfs -R "stat /big" $T/h.img 2>/dev/null | sed -n 's/.*Flags: \(0x[0-9a-f]*\).*/\1/p')
	check "$name/indexed_by_e2fsck" test $((${flags:-0} & 0x1000)) -ne 0
	check "$name/host_fsck_clean" fsck_clean $T/h.img
	check "$name/tree_matches_host" python3 tests/host/fsoracle.py tree $T/h.img "$H"
	# lookups by name (through the index) of names spread over the hash space
	printf 'stat /d/big/entry-number-%s\n' 1 77 5000 9999 10000 | "$FSCLI" -r $T/h.img > $T/out 2>&1
	check "$name/lookups_find_5" test "$(grep -c '^ino=' $T/out)" -eq 5
	echo "stat /d/big/entry-number-10001" | "$FSCLI" -r $T/h.img > $T/out 2>&1
	check "$name/missing_name_ENOENT" grep -qx -- "= -2" $T/out
done

# A deep extent tree: 2400 one-block files, every other one removed, then a
# 1.2 MB file written by debugfs lands in the ~1200 one-block holes.
F=$T/frag
mkdir -p $F
for i in $(seq 1 2400); do printf 'x%.0s' {1..1000} > $F/f$i; done
for v in "b1k:-b 1024" "b1k_nocsum:-b 1024 -O ^metadata_csum,^64bit"; do
	name=deep_extents_${v%%:*}
	# shellcheck disable=SC2086
	mk4 $T/d.img 4M "$F" -O ^has_journal -N 2600 ${v#*:} ||
		{ notok "$name/mkfs" "$(tail -1 "$T/mkfs.out")"; continue; }
	rm -rf $T/dmodel && cp -a $F $T/dmodel
	for i in $(seq 1 2 2400); do echo "rm /f$i"; rm $T/dmodel/f$i; done > $T/rm.cmd
	python3 tools/fillgen.py 1200000 5 > $T/dmodel/big
	echo "write $T/dmodel/big big" >> $T/rm.cmd
	debugfs -w -f $T/rm.cmd $T/d.img >/dev/null 2>&1
	depth=$(debugfs -R "ex /big" $T/d.img 2>/dev/null | sed -n '2s|^ *[0-9]*/ *\([0-9]*\).*|\1|p')
	check "$name/host_made_depth_ge_2" test "${depth:-0}" -ge 2
	check "$name/host_fsck_clean" fsck_clean $T/d.img
	check "$name/tree_matches_host" python3 tests/host/fsoracle.py tree $T/d.img $T/dmodel
done

# Past 2 TiB: a sparse 3 TiB file with 8 KiB of data at 2.5 TiB (1 and 4 KiB blocks).
P=$T/huge
mkdir -p $P
truncate -s 3T $P/huge
at=2748779069440
python3 tools/fillgen.py 8192 9 | dd of=$P/huge bs=4096 seek=$((at / 4096)) conv=notrunc status=none
want=$(dd if=$P/huge bs=4096 skip=$((at / 4096 - 1)) count=4 status=none | sha256sum | cut -c1-64)
for b in 1024 4096; do
	name=over_2TiB_b$b
	mk4 $T/p.img 64M "$P" -b $b || { notok "$name/mkfs" "$(tail -1 "$T/mkfs.out")"; continue; }
	printf '%s\n' "stat /d/huge" "sha /d/huge $((at - 4096)) 16384" "sha /d/huge 4096 4096" |
		"$FSCLI" -r $T/p.img > $T/out 2>&1
	check "$name/size" grep -q "size=3298534883328 " $T/out
	check "$name/data_past_2TiB" grep -q "^$want" $T/out
	check "$name/hole_reads_zero" grep -q "^$(head -c 4096 /dev/zero | sha256sum | cut -c1-64)" $T/out
done

# Uninitialized extents (debugfs fallocate) read as zeroes: blocks 10-30
# of a 5000-byte file allocated uninit, then the size set to 30000.
U=$T/usrc
mkdir -p $U
python3 tools/fillgen.py 5000 1 > $U/mid
python3 tools/fillgen.py 100000 2 > $U/whole
for v in "b1k:-b 1024" "b4k:-b 4096"; do
	name=uninit_${v%%:*}
	# shellcheck disable=SC2086
	mk4 $T/u.img 16M "$U" ${v#*:} || { notok "$name/mkfs" "$(tail -1 "$T/mkfs.out")"; continue; }
	rm -rf $T/umodel && cp -a $U $T/umodel
	printf '%s\n' "fallocate /mid 10 30" "sif /mid size 200000" "write /dev/null empty" \
		"fallocate /empty 0 40" "sif /empty size 100000" | debugfs -w -f - $T/u.img >/dev/null 2>&1
	truncate -s 200000 $T/umodel/mid
	truncate -s 100000 $T/umodel/empty
	check "$name/host_made_uninit" sh -c "debugfs -R 'ex /mid' $T/u.img 2>/dev/null | grep -q Uninit"
	check "$name/host_made_uninit_from_0" sh -c "debugfs -R 'ex /empty' $T/u.img 2>/dev/null | grep -q Uninit"
	check "$name/host_fsck_clean" fsck_clean $T/u.img
	check "$name/tree_matches_host" python3 tests/host/fsoracle.py tree $T/u.img $T/umodel
done
