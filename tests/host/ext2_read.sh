#!/usr/bin/env bash
# ext2 read path against the host's tools: images made by mke2fs -d from a
# generated tree (1 and 4 KiB blocks, 128/256-byte inodes, revision 0 and
# 1, default features, inside MBR and GPT partitions, an htree directory)
# are read through fscli; every file's sha256 must equal the host's,
# every directory listing must equal debugfs 'ls -l', and mounting
# read-only must leave the image byte-identical.
source "$(dirname "$0")/common.bash"
build_fscli

# The source tree: sizes around block boundaries and each indirection level.
S=$T/src
mkdir -p $S/dir/sub/deeper $S/many $S/empty
for n in 0 1 1023 1024 1025 4095 4096 4097 12288 12289 70000 300000 4300000; do
	python3 tools/fillgen.py $n $n > $S/f$n
done
python3 tools/fillgen.py 20000000 7 > $S/dir/sub/big
echo hello > $S/dir/hello.txt
ln $S/dir/hello.txt $S/dir/hardlink
ln -s hello.txt $S/dir/fastlink
ln -s "$(printf 'long/%.0s' {1..30})target" $S/dir/slowlink
for i in $(seq 1 400); do echo "$i" > $S/many/file-with-a-longish-name-$i; done

variant() {	# variant NAME MKE2FS-OPTIONS...
	local name=$1
	shift
	local img=$T/$name.img
	mkimg "$img" 64M "$S" "$@" || { notok "$name/mkfs" "mke2fs failed"; return; }
	cp "$img" "$T/orig.img"
	check "$name/tree_matches_host" python3 tests/host/fsoracle.py tree "$img" "$S"
	check "$name/readonly_unchanged" cmp -s "$img" "$T/orig.img"
}

variant b1k_i128 -b 1024 -I 128
variant b1k_i256 -b 1024 -I 256
variant b4k_i128 -b 4096 -I 128
variant b4k_i256 -b 4096 -I 256
variant b1k_none -b 1024 -I 128 -O none
variant b4k_filetype -b 4096 -O none,filetype,sparse_super
variant rev0 -b 1024 -r 0 -O none

# An htree directory: e2fsck -D indexes "many".
mkimg $T/htree.img 64M "$S" -b 1024
e2fsck -fyD $T/htree.img >/dev/null 2>&1
if debugfs -R "stat /many" $T/htree.img 2>/dev/null | grep -q "Flags: 0x1000"; then
	ok "htree/indexed_by_e2fsck"
else
	notok "htree/indexed_by_e2fsck" "no index flag"
fi
check "htree/readable_as_linear" python3 tests/host/fsoracle.py tree $T/htree.img "$S"

# Inside partitions: MBR logical partition and GPT partition 2.
truncate -s 200M $T/mbr.img
printf 'label: dos\nunit: sectors\n\nstart=2048, size=64MiB, type=83\ntype=5\nsize=80MiB, type=83\n' |
	sfdisk -q $T/mbr.img
off=$(sfdisk -J $T/mbr.img | python3 -c 'import json,sys; p=json.load(sys.stdin)["partitiontable"]["partitions"]; print(p[-1]["start"]*512)')
mke2fs -q -F -t ext2 -b 1024 -d "$S" -E offset=$off $T/mbr.img 80M >/dev/null 2>&1
check "mbr_logical/tree_matches_host" python3 tests/host/fsoracle.py tree "$T/mbr.img?offset=$off" "$S"
check "mbr_logical/fsck_clean" fsck_clean "$T/mbr.img?offset=$off"

truncate -s 200M $T/gpt.img
printf 'label: gpt\nfirst-lba: 2048\n\nstart=2048, size=20MiB, type=L, name="one"\nsize=100MiB, type=L, name="two"\n' |
	sfdisk -q $T/gpt.img
off=$(sfdisk -J $T/gpt.img | python3 -c 'import json,sys; p=json.load(sys.stdin)["partitiontable"]["partitions"]; print(p[1]["start"]*512)')
mke2fs -q -F -t ext2 -b 4096 -d "$S" -E offset=$off $T/gpt.img 100M >/dev/null 2>&1
check "gpt_p2/offset_is_partition_2" test "$off" -eq $(((2048 + 20 * 2048) * 512))
check "gpt_p2/tree_matches_host" python3 tests/host/fsoracle.py tree "$T/gpt.img?offset=$off" "$S"
