#!/usr/bin/env bash
# Booting: -kernel and GRUB ISO on both machines, the run= verdict, the
# command line's tolerance of unknown options and of a line too long to
# keep, and run-qemu's timeout.
. "$(dirname "$0")/lib.bash"
KERNEL_PATH=${KERNEL:-$top/build/kernel.elf}	# as run-qemu passes it to QEMU

for m in pc q35; do
	boot kernel-$m --machine $m --timeout 60 --cmdline 'run=uptime'
	expect_rc "boot/kernel/$m" 0
	expect_out "boot/kernel/$m/reached-run" '^run: done'

	boot iso-$m --iso --machine $m --timeout 120 --cmdline 'run=uptime'
	expect_rc "boot/iso/$m" 0
	expect_out "boot/iso/$m/loader" 'loader "GRUB'
done

# The plain ISO (its own grub.cfg) reaches the shell prompt.
boot iso-menu --iso --machine pc --timeout 60 --input /dev/null
expect_out "boot/iso/menu-reaches-shell" 'Type help for the list of commands'

boot unknown-option --timeout 60 --cmdline 'bogus=1 loglevel=lots run=uptime'
expect_rc "cmdline/unknown-option-survived" 0
expect_out "cmdline/unknown-option-warned" 'unknown parameter "bogus"'
expect_out "cmdline/bad-value-warned" 'bad value for loglevel'

# A line of 4095 bytes and more: the kernel keeps 4095, says what it
# dropped, and ignores the word the cut split (nullb.count=30 would come
# out as nullb.count=3), while the options before the cut hold.  QEMU
# puts the kernel's path and a space first, so the padding (loglevel=6,
# the default, with leading zeros to fit) depends on that path.
head='nullb.size=2M run="lsblk" ' cut='nullb.count=3'
fill=$((4095 - ${#KERNEL_PATH} - 1 - ${#head} - ${#cut}))
pad=""
while [ $((fill - ${#pad})) -ge 22 ]; do pad+="loglevel=6 "; done
zeros=$(printf '%*s' $((fill - ${#pad} - 11)) '' | tr ' ' 0)
pad+="loglevel=${zeros}6 "
boot cmdline-cut --timeout 60 --cmdline "${head}${pad}nullb.count=30 loglevel=6"
expect_rc "cmdline/cut/run-before-the-cut-ran" 0
expect_out "cmdline/cut/warned" \
	'\] cmdline: longer than the 4095 bytes kept: the last 12 bytes dropped, and "nullb\.count=3", cut short, ignored$'
expect_out "cmdline/cut/option-before-the-cut-held" '^nullb0 +[0-9]+:0 +2M '
expect_no_out "cmdline/cut/cut-word-not-applied" '^nullb[12] '

boot run-fails --timeout 60 --cmdline 'run="uptime; nosuchcommand; uptime"'
expect_rc "run/failed-command-fails-run" 1
expect_out "run/not-found-said" 'nosuchcommand: command not found'
expect_out "run/later-commands-still-ran" '^up [0-9]'

boot run-quotes --timeout 60 --cmdline 'run="echo '"'a  b'"'; echo c"'
expect_rc "run/quoted" 0
expect_out "run/quoted-words-kept" '^a  b$'
expect_out "run/second-command" '^c$'

boot usage --timeout 60 --cmdline 'run="uptime extra"'
expect_rc "shell/usage-error-fails" 1
expect_out "shell/usage-printed" '^usage: uptime'

boot timeout --timeout 5
expect_rc "run-qemu/timeout-124" 124

printf 'poweroff\r' >"$logdir/init.in"
boot init --timeout 60 --input "$logdir/init.in" --cmdline 'init="echo first; uptime"'
expect_rc "shell/init-then-prompt-then-poweroff" 0
expect_out "shell/init-ran" '^first$'
expect_out "shell/init-prompt" 'Type help for the list of commands'
