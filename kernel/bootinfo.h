/*
 * What the boot loader told us, copied into kernel memory before anything
 * can overwrite it.  One interface whatever the loader (multiboot 1 today;
 * multiboot 2 and UEFI later fill the same structure).
 *
 * The memory map is given as the firmware reported it (unsorted, possibly
 * overlapping); mm sanitizes it.  Type 1 (BOOT_MEM_USABLE) is RAM; every
 * other type is reserved.
 */
#ifndef KERNEL_BOOTINFO_H
#define KERNEL_BOOTINFO_H

#include "kernel/types.h"

#define BOOT_MAX_MMAP		128
#define BOOT_MAX_MODULES	16
#define BOOT_CMDLINE_MAX	4096	/* bytes of the command line kept, NUL included */

#define BOOT_MEM_USABLE		1

struct boot_mmap_entry {
	u64	base;
	u64	len;
	u32	type;
};

struct boot_module {
	phys_addr_t	start;		/* [start, end) in physical memory */
	phys_addr_t	end;
	char		name[256];	/* the module's command line */
};

struct boot_info {
	u32			magic;		/* the loader's magic, for the report */
	char			loader[64];	/* boot loader name, "" if not given */
	char			cmdline[BOOT_CMDLINE_MAX];
	u32			cmdline_dropped;	/* bytes of the loader's line cut off */
	bool			cmdline_cut_in_word;	/* ... and the cut split a word */
	struct boot_mmap_entry	mmap[BOOT_MAX_MMAP];
	unsigned		nr_mmap;	/* 0: only mem_lower/mem_upper known */
	u32			mem_lower_kb;	/* multiboot basic memory info */
	u32			mem_upper_kb;
	struct boot_module	modules[BOOT_MAX_MODULES];
	unsigned		nr_modules;
	phys_addr_t		info_start;	/* the loader's own structures, which */
	phys_addr_t		info_end;	/* mm keeps until boot_info is copied */
};

extern struct boot_info boot_info;

/*
 * Fill boot_info from the loader's multiboot information at info_phys.
 * Returns 0, or -EINVAL when magic says no multiboot loader started us.
 */
int multiboot_parse(u32 magic, u32 info_phys);

/*
 * Linker-script symbols (linker.ld).  Addresses are virtual; subtract
 * PAGE_OFFSET for physical.  Text [_text,_etext), read-only data
 * [_rodata,_erodata), data [_data,_edata), bss [_bss_start,_bss_end).
 */
extern char _kernel_start[], _kernel_end[];
extern char _text[], _etext[], _rodata[], _erodata[];
extern char _data[], _edata[], _bss_start[], _bss_end[];

/*
 * Boot stack, with one unmapped-to-be guard page below it
 * (boot_stack_guard, page-aligned, 4 KiB); mm unmaps the guard page.
 */
extern char boot_stack_guard[], boot_stack_top[];

/*
 * The early page tables built by boot/entry.S: a PAE PDPT whose entry 3
 * points at a page directory mapping physical [0, 1 GiB) at PAGE_OFFSET
 * with 2 MiB pages (entry 0 identity-maps the first 4 MiB until main()
 * drops it).  mm builds the final tables and switches CR3 away from these.
 */
extern u64 boot_pdpt[4];

#endif
