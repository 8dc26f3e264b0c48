#!/usr/bin/env bash
# The interactive shell over the serial line: typed input, line editing,
# completion, history, help, and poweroff ending the run cleanly.
. "$(dirname "$0")/lib.bash"

in=$logdir/shell.in
# help; "upt<TAB>" completes to uptime; Ctrl-U kills "echo junk"; the
# up-arrow recalls "echo again" after the history; Ctrl-A jumps home to
# insert; Ctrl-W deletes a word; Left arrow moves before inserting.
# All of it is typed ahead, before the kernel has set up the UART: the
# first byte too must reach the shell.
printf 'echo typed-ahead\rhelp\rupt\t\recho junk\025echo kept\recho again\r\033[A\r\033[A\001#\recho one two\027three\recho ac\033[Db\rhelp nosuch\rpoweroff\r' >"$in"
boot shell --timeout 60 --input "$in"
expect_rc "shell/poweroff-exits-0" 0
expect_out "shell/typed-ahead-first-byte-kept" '^typed-ahead$'
expect_out "shell/help-lists-commands" '^  uptime +time since boot'
expect_out "shell/tab-completes-command" '^up [0-9]+\.[0-9]+ s'
expect_out "shell/ctrl-u-kills-line" '^kept'
expect_no_out "shell/killed-text-not-run" '^junk'
expect_out "shell/history-recall" '^again$'
expect_out "shell/ctrl-a-home" '^#echo: command not found'
expect_out "shell/ctrl-w-word" '^one three$'
expect_out "shell/left-arrow-insert" '^abc$'
expect_out "shell/help-unknown" 'help: no command nosuch'

# A script piped in is read whole, however long: 6 KiB typed ahead while
# a benchmark runs fills the input ring, and the UART then holds the rest
# back instead of dropping it.
in=$logdir/shell-long.in
{ printf 'bench nullb0 randread:qd=1:bs=4K:ios=20000\r'
  for i in $(seq 1000 1399); do printf 'echo typed%s\r' "$i"; done
  printf 'poweroff\r'; } >"$in"
boot shell-long-input --timeout 120 --input "$in"
expect_rc "shell/long-input-poweroff" 0
n=$(grep -cE '^typed1[0-9]{3}$' "$out")
[ "$n" = 400 ] && ok "shell/long-input-whole" || notok "shell/long-input-whole" "$n of 400 lines ran (see $out)"

# run= echoes its commands whole, however long (one kprintf holds 512 bytes),
# and runs them all: 2 KiB of commands, past a line buffer's 1 KiB.
long=$(for i in $(seq 100 299); do printf 'echo w%s; ' "$i"; done)
long="${long}echo last"
boot shell-run-long --timeout 60 --cmdline "run=\"$long\""
expect_rc "shell/run-long-rc" 0
expect_out "shell/run-long-echoed-whole" "^run: ${long}\$"
expect_out "shell/run-long-ran-last" '^last$'
