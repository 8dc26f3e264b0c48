/*
 * Basic types shared by every layer, in the kernel and in host builds.
 *
 * Physical and DMA addresses are 64-bit everywhere (PAE reaches 64 GiB and
 * AHCI DMA reaches beyond 4 GiB), and so is sector_t: a 32-bit sector count
 * wraps at 2 TiB.  The compiler's freestanding headers give the fixed-width
 * types in both builds.
 */
#ifndef KERNEL_TYPES_H
#define KERNEL_TYPES_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdarg.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

typedef u64 phys_addr_t;	/* a CPU physical address */
typedef u64 dma_addr_t;		/* an address as a device's DMA engine sees it */
typedef u64 sector_t;		/* a 512-byte sector number or count */
#ifdef HOST_TEST
#include <sys/types.h>	/* the host's dev_t is wider; MKDEV values fit */
#else
typedef u32 dev_t;		/* major << 20 | minor, as Linux's kernel-internal form */
#endif

#define MINORBITS	20
#define MKDEV(ma, mi)	(((dev_t)(ma) << MINORBITS) | (dev_t)(mi))
#define MAJOR(d)	((unsigned)((d) >> MINORBITS))
#define MINOR(d)	((unsigned)((d) & ((1U << MINORBITS) - 1)))

#define SECTOR_SHIFT	9
#define SECTOR_SIZE	(1 << SECTOR_SHIFT)

#endif
