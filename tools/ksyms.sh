#!/bin/sh
# Generate the kernel's function-name table for backtraces, as assembly
# for the .ksyms section (kernel/ksyms.c reads it).
#
#   ksyms.sh --empty             a table with no symbols (first link)
#   ksyms.sh NM kernel.elf       the text symbols of a linked kernel, sorted
#
# Addresses are written as numbers, not relocations, so that the second
# link, which adds this table after all code, reproduces every address.
set -e
emit_header() {
	echo '	.section .ksyms, "a"'
	echo '	.align 4'
	echo '	.globl ksyms_count, ksyms_addr, ksyms_name'
}
if [ "$1" = "--empty" ]; then
	emit_header
	echo 'ksyms_count: .long 0'
	echo 'ksyms_addr:'
	echo 'ksyms_name:'
	exit 0
fi
nm=$1
elf=$2
"$nm" -n "$elf" | awk '
	BEGIN { n = 0 }
	NF == 3 && $2 ~ /^[tTwW]$/ && $3 !~ /^\.L/ { addr[n] = $1; name[n] = $3; n++ }
	END {
		print "\t.section .ksyms, \"a\""
		print "\t.align 4"
		print "\t.globl ksyms_count, ksyms_addr, ksyms_name"
		printf "ksyms_count: .long %d\n", n
		print "ksyms_addr:"
		for (i = 0; i < n; i++) printf "\t.long 0x%s\n", addr[i]
		print "ksyms_name:"
		for (i = 0; i < n; i++) printf "\t.long .Lname%d\n", i
		for (i = 0; i < n; i++) printf ".Lname%d: .asciz \"%s\"\n", i, name[i]
	}'
