/*
 * Symbol lookup and backtraces.  The table is sorted by address (nm -n);
 * a lookup is a binary search for the last symbol at or below the address.
 * The backtrace follows the EBP chain that -fno-omit-frame-pointer keeps:
 * [ebp] is the caller's EBP and [ebp+4] the return address.  It trusts
 * nothing: every frame must lie in the kernel half, be aligned and move up
 * the stack, and the walk is capped.
 */
#include "kernel/ksyms.h"
#include "kernel/printk.h"
#include "kernel/bootinfo.h"
#include "kernel/mm/page.h"

extern const u32 ksyms_count;
extern const u32 ksyms_addr[];
extern const char *const ksyms_name[];

#define BACKTRACE_MAX_FRAMES	64

const char *ksym_lookup(u32 addr, u32 *offset)
{
	u32 lo = 0, hi = ksyms_count;

	if (ksyms_count == 0 || addr < ksyms_addr[0] || addr >= (u32)_etext)
		return NULL;
	while (hi - lo > 1) {
		u32 mid = lo + (hi - lo) / 2;

		if (ksyms_addr[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	*offset = addr - ksyms_addr[lo];
	return ksyms_name[lo];
}

static void print_frame(u32 pc)
{
	u32 off;
	const char *name = ksym_lookup(pc, &off);

	if (name)
		printk(KERN_EMERG "  [<%08x>] %s+0x%x\n", pc, name, off);
	else
		printk(KERN_EMERG "  [<%08x>] ?\n", pc);
}

void backtrace_print(u32 pc, u32 ebp)
{
	u32 last = 0, repeats = 0;
	int n;

	printk(KERN_EMERG "backtrace:\n");
	print_frame(pc);
	for (n = 0; n < BACKTRACE_MAX_FRAMES; n++) {
		const u32 *frame = (const u32 *)ebp;
		u32 next, ret;

		if (ebp < PAGE_OFFSET || (ebp & 3) || ebp > 0xfffffff0u)
			break;
		next = frame[0];
		ret = frame[1];
		if (ret == 0)
			break;
		if (ret == last) {	/* deep recursion: say it once */
			repeats++;
		} else {
			if (repeats)
				printk(KERN_EMERG "  ... the frame above %u more times\n", repeats);
			repeats = 0;
			print_frame(ret);
			last = ret;
		}
		if (next <= ebp)
			break;
		ebp = next;
	}
	if (repeats)
		printk(KERN_EMERG "  ... the frame above %u more times\n", repeats);
}

/*
 * The return addresses of the frame-pointer chain from (pc, ebp), pc
 * first: at most max of them.  For a CPU that records its own stack to be
 * printed by another (kernel/nmi.c).
 */
int backtrace_collect(u32 pc, u32 ebp, u32 *pcs, int max)
{
	int n = 0;

	if (max > 0)
		pcs[n++] = pc;
	while (n < max) {
		const u32 *frame = (const u32 *)ebp;

		if (ebp < PAGE_OFFSET || (ebp & 3) || ebp > 0xfffffff0u || frame[1] == 0)
			break;
		pcs[n++] = frame[1];
		if (frame[0] <= ebp)
			break;
		ebp = frame[0];
	}
	return n;
}

/* Print what backtrace_collect() gathered, one frame a line. */
void backtrace_print_pcs(const u32 *pcs, int n)
{
	int i;

	for (i = 0; i < n; i++)
		print_frame(pcs[i]);
}
