#!/usr/bin/env bash
# I/O errors under ext2, injected by QEMU's blkdebug on AHCI (q35) and on
# PIIX IDE (pc), one case per disk, all failing every time:
#   itable  the inode table block of a new file     write, then umount
#   bitmap  the block bitmap                        fill, then umount
#   dirblk  the root directory's block              mkdir, then umount
#   direct  a data block of a large file            fill (direct path)
#   cached  the data block of a small file          write; power-off unmounts (cached path)
#   indir   reading the indirect block of /big      sha256sum (read-only disk)
#   clean   nothing fails                           write; power-off unmounts
# The error must reach the command that met it ("I/O error"), unmount must
# mark the filesystem with errors when its write-back failed, power-off must
# finish and still unmount the filesystems after a failed one, and then
# e2fsck -fn and debugfs on the host must find the other files intact and
# no damage outside what the failed command touched.
# Where each case fails is found on the host (dumpe2fs, debugfs) or, for
# the data cases, by a dry run of the same commands without faults.
. "$(dirname "$0")/lib.bash"
export PATH=$PATH:/usr/sbin:/sbin E2FSPROGS_FAKE_TIME=1700000000

dir=$logdir/fs-ioerr
rm -rf "$dir" && mkdir -p "$dir/src"
echo hello >"$dir/src/f"
python3 tools/fillgen.py 50000 1 >"$dir/src/big"
python3 tools/fillgen.py 20000 2 >"$dir/src/keep"
mke2fs -q -F -t ext2 -b 1024 -I 128 -m 0 -d "$dir/src" "$dir/fresh.img" 8M >"$dir/make.log" 2>&1 ||
	{ notok "fs-ioerr/image" "mke2fs failed (see $dir/make.log)"; exit 0; }
cases=(itable bitmap dirblk direct cached indir)
declare -A ops=(
	[itable]="write /P/new hello; umount /P"
	[bitmap]="fill /P/new 5000 1; umount /P"
	[dirblk]="mkdir /P/d; umount /P"
	[direct]="fill /P/new 300000 3; umount /P"
	[cached]="write /P/new hello"
	[indir]="sha256sum /P/big; cat /P/f"
	[clean]="write /P/new hello"
)
good_direct=65536	# fill writes 64 KiB calls: the first (blocks 0-63) lands, the one with block 100 fails
dump() { dumpe2fs "$dir/fresh.img" 2>/dev/null | sed -n "s/^  $1.* at \([0-9]*\).*/\1/p" | head -1; }

# What e2fsck may find afterwards: the failed command's own traces (the new
# file is inode $first_ino); nothing at all when only file data was lost.
first_ino=$(dumpe2fs "$dir/fresh.img" 2>/dev/null | sed -n 's/^  Free inodes: \([0-9]*\).*/\1/p' | head -1)
declare -A expect=(
	[itable]="^Entry 'new' in / \(2\) has (deleted/unused inode $first_ino|an incorrect filetype)|^(Block|Inode) bitmap differences|^Free (blocks|inodes) count wrong"
	[bitmap]="^Block bitmap differences|^Free blocks count wrong"
	[dirblk]="^Unconnected directory inode $first_ino |^'..' in \.\.\. \($first_ino\) is / \(2\), should be|^Inode $first_ino ref count is 2, should be 1"
)

# The blocks that fail, in 1 KiB filesystem blocks.
declare -A fail=(
	[itable]=$(( $(dump 'Inode table') + (first_ino - 1) * 128 / 1024 ))
	[bitmap]=$(dump 'Block bitmap')
	[dirblk]=$(debugfs -R "blocks /" "$dir/fresh.img" 2>/dev/null | awk '{print $1}')
	[indir]=$(debugfs -R "stat /big" "$dir/fresh.img" 2>/dev/null | sed -n 's/.*(IND):\([0-9]*\).*/\1/p')
)
cp "$dir/fresh.img" "$dir/dry-direct.img"
cp "$dir/fresh.img" "$dir/dry-cached.img"
boot fs-ioerr-dry --machine q35 --timeout 60 --disk "$dir/dry-direct.img,bus=ahci" \
	--disk "$dir/dry-cached.img,bus=ahci" \
	--cmdline "writable=all run=\"${ops[direct]//P/sda}; ${ops[cached]//P/sdb}\""
fail[direct]=$(debugfs -R "bmap /new 100" "$dir/dry-direct.img" 2>/dev/null)
fail[cached]=$(debugfs -R "bmap /new 0" "$dir/dry-cached.img" 2>/dev/null)
fail[clean]=$(( $(dumpe2fs -h "$dir/fresh.img" 2>/dev/null | sed -n 's/^Block count: *//p') - 1 ))	# unused
for c in "${cases[@]}"; do
	[ "${fail[$c]:-0}" -gt 0 ] 2>/dev/null && ok "fs-ioerr/$c/block_found" ||
		notok "fs-ioerr/$c/block_found" "no block for the $c case (got '${fail[$c]}')"
done

# run_case BUS NAME CASE...: boot with the cases' disks, each behind blkdebug
# (the first on port 0, and so on: power-off unmounts the last first).
declare -A devof
run_case() {
	local bus=$1 name=$2 i=0 c iotype event args=() cmds=() dev writable="" letters=abcdef
	shift 2
	for c in "$@"; do
		iotype=write event=write_aio
		[ "$c" = indir ] && iotype=read event=read_aio
		printf '[inject-error]\nevent = "%s"\niotype = "%s"\nerrno = "5"\nsector = "%s"\nonce = "off"\n' \
			"$event" "$iotype" $(( ${fail[$c]} * 2 )) >"$dir/$c.cfg"
		cp "$dir/fresh.img" "$dir/$bus-$c.img"
		local drive="file=blkdebug:$dir/$c.cfg:$dir/$bus-$c.img,format=raw,werror=report,rerror=report,cache=unsafe"
		if [ "$bus" = ahci ]; then
			dev=sd${letters:i:1}
			args+=(-drive "if=none,id=d$i,$drive" -device "ide-hd,drive=d$i,bus=ide.$i")
		else
			dev=hd${letters:i:1}
			args+=(-drive "if=ide,index=$i,$drive")
		fi
		cmds+=("echo ==$c; ${ops[$c]//P/$dev}")
		devof[$c]=$dev
		[ "$c" = indir ] || writable+=",$dev"
		i=$((i + 1))
	done
	local IFS=';'
	boot "fs-ioerr-$name" --machine "$([ "$bus" = ahci ] && echo q35 || echo pc)" --timeout 120 \
		--cmdline "writable=${writable#,} run=\"${cmds[*]}\"" -- "${args[@]}"
	unset IFS
	expect_rc "fs-ioerr/$name/poweroff_after_failure" 1
	expect_no_out "fs-ioerr/$name/no_panic_no_timeout" 'panic|Oops|timed out|resetting'
}

# section CASE: what the run printed between its marker and the next one.
section() { sed -n "/^==$1\$/,/^==/p" "$out"; }
in_section() {	# NAME CASE REGEX
	section "$2" | grep -qE -- "$3" && ok "$1" || notok "$1" "no '$3' after ==$2 in $out"
}

# judge BUS CASE: the host's view of that case's image after the boot.
judge() {
	local bus=$1 c=$2 img=$dir/$1-$2.img n=fs-ioerr/$1/$2 f e
	case $c in
	itable|bitmap|dirblk) in_section "$n/umount_reports" "$c" '^umount: I/O error' ;;&
	cached) expect_out "$n/poweroff_unmount_reports" "fs: ${devof[$c]}: unmounted at shutdown, with errors: I/O error" ;;&
	itable|bitmap|dirblk|cached)
		expect_out "$n/marked_with_errors" "ext2 \(${devof[$c]}\): write-back failed at unmount; marking the filesystem with errors"
		dumpe2fs -h "$img" 2>/dev/null | grep -q '^Filesystem state:.*with errors' && ok "$n/state_errors" ||
			notok "$n/state_errors" "superblock not marked with errors" ;;
	direct)
		in_section "$n/fill_reports" "$c" '^fill: [^ ]+: I/O error'
		debugfs -R "dump /new $dir/$bus-direct.new" "$img" >/dev/null 2>&1
		python3 tools/fillgen.py $good_direct 3 | cmp -s - "$dir/$bus-direct.new" &&
			ok "$n/file_ends_after_last_good_write" || notok "$n/file_ends_after_last_good_write" "content" ;;
	clean)
		dumpe2fs -h "$img" 2>/dev/null | grep -q '^Filesystem state: *clean$' && ok "$n/unmounted_clean" ||
			notok "$n/unmounted_clean" "not marked clean: power-off gave up after a failed unmount?"
		[ "$(debugfs -R 'cat /new' "$img" 2>/dev/null)" = hello ] && ok "$n/written" || notok "$n/written" "/new" ;;
	indir)
		in_section "$n/sha256sum_reports" "$c" '^sha256sum: [^ ]+: I/O error'
		in_section "$n/other_files_read" "$c" '^hello$'
		cmp -s "$img" "$dir/fresh.img" && ok "$n/image_untouched" || notok "$n/image_untouched" "changed" ;;
	esac
	# The files that were there are intact.
	for f in f big keep; do
		debugfs -R "dump /$f $dir/$bus-$c.$f" "$img" >/dev/null 2>&1
		cmp -s "$dir/src/$f" "$dir/$bus-$c.$f" || e="$e $f"
	done
	[ -z "$e" ] && ok "$n/other_files_intact" || notok "$n/other_files_intact" "differ:$e"
	# e2fsck may complain only about what the failed command was making.
	e2fsck -fn "$img" >"$dir/$bus-$c.e2fsck" 2>&1
	e=$(grep -vE '^(e2fsck [0-9]|Pass [1-5]:|$|.*: [0-9]+/[0-9]+ files |.*WARNING: Filesystem still has errors)' \
		"$dir/$bus-$c.e2fsck" | sed -E 's/ *(Fix|Clear|Connect to .*)\? no$//' | grep . |
		grep -vE "${expect[$c]:-^\$}")
	[ -z "$e" ] && ok "$n/e2fsck_only_expected_damage" ||
		notok "$n/e2fsck_only_expected_damage" "$(echo "$e" | head -3 | tr '\n' ' ')"
}

run_case ahci ahci "${cases[@]}"
for c in "${cases[@]}"; do judge ahci "$c"; done
run_case ide ide1 itable bitmap dirblk direct
for c in itable bitmap dirblk direct; do judge ide "$c"; done
run_case ide ide2 clean indir cached
for c in clean indir cached; do judge ide "$c"; done
