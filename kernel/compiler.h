/*
 * Compiler helpers: attributes, branch hints, container_of, sizes.
 * Shared by the kernel and host builds.
 */
#ifndef KERNEL_COMPILER_H
#define KERNEL_COMPILER_H

#include "kernel/types.h"

#define __packed		__attribute__((packed))
#define __aligned(x)		__attribute__((aligned(x)))
#define __section(s)		__attribute__((section(s)))
#define __used			__attribute__((used))
#define __unused		__attribute__((unused))
#define __noreturn		__attribute__((noreturn))
#define __printf(a, b)		__attribute__((format(printf, a, b)))
#define __must_check		__attribute__((warn_unused_result))
#ifndef __always_inline
#define __always_inline		inline __attribute__((always_inline))
#endif
#define __noinline		__attribute__((noinline))

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)

#define barrier()		__asm__ __volatile__("" ::: "memory")
/* A full fence: no load or store moves across it, not even a load past a store. */
#define smp_mb()		__sync_synchronize()
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))

#define __stringify_1(x)	#x
#define __stringify(x)		__stringify_1(x)

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define min(a, b)		((a) < (b) ? (a) : (b))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define clamp(v, lo, hi)	min(max(v, lo), hi)

/* Power-of-two alignment; a must be a power of two. */
#define ALIGN_UP(x, a)		(((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a)	((x) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a)	(((x) & ((__typeof__(x))(a) - 1)) == 0)
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define is_power_of_2(n)	((n) != 0 && ((n) & ((n) - 1)) == 0)

#define KiB			(1024UL)
#define MiB			(1024UL * 1024)
#define GiB			(1024ULL * 1024 * 1024)

#endif
