/*
 * Function names for addresses, from the table the second link embeds
 * (tools/ksyms.sh), and the frame-pointer backtrace built on it.
 */
#ifndef KERNEL_KSYMS_H
#define KERNEL_KSYMS_H

#include "kernel/types.h"

/* The function containing addr and the offset into it; NULL if unknown. */
const char *ksym_lookup(u32 addr, u32 *offset);
/* Print "  [<addr>] name+0xoff" for pc, then walk the saved-EBP chain. */
void backtrace_print(u32 pc, u32 ebp);
int backtrace_collect(u32 pc, u32 ebp, u32 *pcs, int max);
void backtrace_print_pcs(const u32 *pcs, int n);

#endif
