/*
 * What the boot loader told us, copied into kernel memory before anything
 * can overwrite it.  One interface whatever the loader: multiboot 1
 * (kernel/multiboot.c: QEMU -kernel, GRUB on BIOS) and multiboot 2
 * (kernel/multiboot2.c: GRUB on BIOS and UEFI) fill the same structure,
 * and nothing after boot_info_parse() asks which one it was.
 *
 * The memory map is given as the firmware reported it (unsorted, possibly
 * overlapping); mm sanitizes it.  Type 1 (BOOT_MEM_USABLE) is RAM; every
 * other type is reserved.  From a UEFI memory map, boot-services code and
 * data count as RAM: the kernel never calls the firmware.
 */
#ifndef KERNEL_BOOTINFO_H
#define KERNEL_BOOTINFO_H

#include "kernel/types.h"

#define BOOT_MAX_MMAP		128
#define BOOT_MAX_MODULES	16
#define BOOT_CMDLINE_MAX	4096	/* bytes of the command line kept, NUL included */

#define BOOT_MEM_USABLE		1

#define MB1_BOOTLOADER_MAGIC	0x2BADB002	/* Multiboot 0.6.96, 3.2 */
#define MB2_BOOTLOADER_MAGIC	0x36D76289	/* Multiboot 2.0, 3.3 */

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

/* The linear framebuffer the loader set up (multiboot 2 tag 8). */
struct boot_fb {
	phys_addr_t	fb_addr;	/* 0: none */
	u32		fb_pitch;	/* bytes per scan line */
	u32		fb_width, fb_height;	/* pixels */
	u8		fb_bpp;		/* bits per pixel */
	u8		fb_type;
#define BOOT_FB_RGB		1	/* direct colour: the fields below */
#define BOOT_FB_EGA_TEXT	2	/* VGA text mode; width, height in characters */
	u8		fb_red_pos, fb_red_size;	/* bit position and width */
	u8		fb_green_pos, fb_green_size;
	u8		fb_blue_pos, fb_blue_size;
};

#define BOOT_RSDP_MAX		36	/* an ACPI 2.0+ RSDP (ACPI 6.5 5.2.5.3) */

struct boot_info {
	u32			magic;		/* the loader's magic, for the report */
	char			loader[64];	/* boot loader name, "" if not given */
	char			firmware[8];	/* "bios", "efi32", "efi64" */
	char			cmdline[BOOT_CMDLINE_MAX];
	u32			cmdline_dropped;	/* bytes of the loader's line cut off */
	bool			cmdline_cut_in_word;	/* ... and the cut split a word */
	struct boot_mmap_entry	mmap[BOOT_MAX_MMAP];
	unsigned		nr_mmap;	/* 0: only mem_lower/mem_upper known */
	u32			mem_lower_kb;	/* multiboot basic memory info */
	u32			mem_upper_kb;
	struct boot_module	modules[BOOT_MAX_MODULES];
	unsigned		nr_modules;
	u8			rsdp[BOOT_RSDP_MAX];	/* the loader's copy of the */
	unsigned		rsdp_len;	/* ACPI RSDP; 0: search for it */
	struct boot_fb		fb;
	phys_addr_t		info_start;	/* the loader's own structures, which */
	phys_addr_t		info_end;	/* mm keeps until boot_info is copied */
};

extern struct boot_info boot_info;

/*
 * Fill boot_info from the loader's information at info_phys, multiboot 1
 * or 2 as magic says.  Returns 0, or -EINVAL when magic says no multiboot
 * loader started us.  Warnings go to the log (consoles may not be up).
 */
int boot_info_parse(u32 magic, u32 info_phys);

/* The two parsers boot_info_parse() dispatches to (0 or -EINVAL). */
int multiboot_parse(u32 info_phys);
#define MB2_INFO_COPY_MAX	(64 * 1024)	/* bytes of multiboot 2 info kept */
int multiboot2_parse(const void *info, size_t len);

/*
 * boot/entry.S copies the multiboot 2 information (it is self-contained)
 * here while paging is still off, wherever the loader put it: GRUB on
 * UEFI may place it anywhere below 4 GiB, out of the early map's reach.
 * mb2_info_size is the loader's total_size, which may exceed the copy.
 */
extern u8 mb2_info_copy[MB2_INFO_COPY_MAX];
extern u32 mb2_info_size;

/* Shared by the parsers (kernel/bootinfo.c). */
void boot_add_mmap(u64 base, u64 len, u32 type);
void boot_set_cmdline(const char *s, size_t len);

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
