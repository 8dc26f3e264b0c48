/*
 * Port and memory-mapped I/O.  Drivers touch registers only through their
 * own accessors built on these (STYLE rule 22); these own the volatile
 * accesses and the compiler barriers.  x86 keeps uncached MMIO in order,
 * so no fences are needed beyond stopping the compiler from reordering.
 */
#ifndef KERNEL_IO_H
#define KERNEL_IO_H

#include "kernel/compiler.h"

static inline void outb(u16 port, u8 v) { __asm__ __volatile__("outb %0, %1" :: "a"(v), "Nd"(port) : "memory"); }
static inline void outw(u16 port, u16 v) { __asm__ __volatile__("outw %0, %1" :: "a"(v), "Nd"(port) : "memory"); }
static inline void outl(u16 port, u32 v) { __asm__ __volatile__("outl %0, %1" :: "a"(v), "Nd"(port) : "memory"); }

static inline u8 inb(u16 port)
{
	u8 v;
	__asm__ __volatile__("inb %1, %0" : "=a"(v) : "Nd"(port) : "memory");
	return v;
}

static inline u16 inw(u16 port)
{
	u16 v;
	__asm__ __volatile__("inw %1, %0" : "=a"(v) : "Nd"(port) : "memory");
	return v;
}

static inline u32 inl(u16 port)
{
	u32 v;
	__asm__ __volatile__("inl %1, %0" : "=a"(v) : "Nd"(port) : "memory");
	return v;
}

/* Word string I/O, for ATA PIO data transfers. */
static inline void insw(u16 port, void *buf, u32 count)
{
	__asm__ __volatile__("rep insw" : "+D"(buf), "+c"(count) : "d"(port) : "memory");
}

static inline void outsw(u16 port, const void *buf, u32 count)
{
	__asm__ __volatile__("rep outsw" : "+S"(buf), "+c"(count) : "d"(port) : "memory");
}

/* About a microsecond: a write to the unused POST diagnostic port. */
static inline void io_delay(void) { outb(0x80, 0); }

static inline u32 readl(const volatile void *addr) { return *(const volatile u32 *)addr; }
static inline u16 readw(const volatile void *addr) { return *(const volatile u16 *)addr; }
static inline u8 readb(const volatile void *addr) { return *(const volatile u8 *)addr; }
static inline void writel(volatile void *addr, u32 v) { *(volatile u32 *)addr = v; }
static inline void writew(volatile void *addr, u16 v) { *(volatile u16 *)addr = v; }
static inline void writeb(volatile void *addr, u8 v) { *(volatile u8 *)addr = v; }

#endif
