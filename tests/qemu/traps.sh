#!/usr/bin/env bash
# Exceptions end in a readable report and a failed run, never a silent
# reset: a NULL dereference, a division by zero, and an explicit panic.
. "$(dirname "$0")/lib.bash"

boot null --timeout 60 --cmdline 'run="crash null"'
expect_rc "traps/null/fails-run" 1
expect_out "traps/null/vector" 'CPU exception 14 \(page fault\) at c[0-9a-f]+ in cmd_crash\+0x'
expect_out "traps/null/decoded" 'page fault: address 0x00000000, read, not present, kernel mode \(NULL pointer dereference\)'
expect_out "traps/null/registers" 'cr0=[0-9a-f]{8} cr2=00000000'
expect_out "traps/null/backtrace" '\[<c[0-9a-f]+>\] shell_exec\+0x'
expect_out "traps/null/panic" 'Kernel panic: unhandled CPU exception'

boot divide --timeout 60 --cmdline 'run="crash divide"'
expect_rc "traps/divide/fails-run" 1
expect_out "traps/divide/vector" 'CPU exception 0 \(divide error\)'

boot panic --timeout 60 --cmdline 'run="crash panic"'
expect_rc "traps/panic/fails-run" 1
expect_out "traps/panic/message" 'Kernel panic: crash command'
expect_out "traps/panic/backtrace" '\[<c[0-9a-f]+>\] cmd_crash\+0x'

# With mm's page tables: kernel text is read-only, and the boot stack has
# an unmapped guard page, so an overflow is a double fault with a report.
boot text --timeout 60 --cmdline 'run="crash text"'
expect_rc "traps/text/fails-run" 1
expect_out "traps/text/write-protected" 'page fault: address 0xc[0-9a-f]+, write, protection violation, kernel mode'

boot stack --timeout 60 --cmdline 'run="crash stack"'
expect_rc "traps/stack/fails-run" 1
expect_out "traps/stack/double-fault" 'CPU exception 8 \(double fault\) at c[0-9a-f]+ in recurse'
expect_out "traps/stack/overflow-named" 'kernel stack overflow: esp reached the guard page'
expect_out "traps/stack/recursion-folded" 'the frame above [0-9]+ more times'
