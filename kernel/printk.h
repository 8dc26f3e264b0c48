/*
 * Kernel log.  printk() formats into the log ring (read by dmesg) and
 * writes the message to every console whose level lets it through
 * (loglevel=N on the command line, default 6: everything but debug).
 *
 * A message may start with a level marker, KERN_ERR and friends; without
 * one it is KERN_INFO.  Safe in interrupt context.
 */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include "kernel/compiler.h"

#define KERN_EMERG	"\0010"
#define KERN_ALERT	"\0011"
#define KERN_CRIT	"\0012"
#define KERN_ERR	"\0013"
#define KERN_WARNING	"\0014"
#define KERN_NOTICE	"\0015"
#define KERN_INFO	"\0016"
#define KERN_DEBUG	"\0017"
#define KERN_CONT	"\001c"	/* continues the previous line */

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap);

#define LOG_BUF_SIZE	(64 * 1024)	/* bytes of log kept for dmesg */

/*
 * Copy the log out, oldest first, skipping a partial first line when the
 * ring has wrapped.  Returns bytes copied (at most size).
 */
size_t log_read(char *dst, size_t size);

#define pr_emerg(fmt, ...)	printk(KERN_EMERG fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(KERN_ERR fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(KERN_WARNING fmt, ##__VA_ARGS__)
#define pr_notice(fmt, ...)	printk(KERN_NOTICE fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(KERN_INFO fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)	printk(KERN_DEBUG fmt, ##__VA_ARGS__)
#define pr_cont(fmt, ...)	printk(KERN_CONT fmt, ##__VA_ARGS__)

/*
 * Per-subsystem debug output, compiled out unless the file defines
 * DEBUG_MASK before including this header (STYLE rule 27):
 *	#define DEBUG_MASK (AHCI_D_VERBOSE)
 */
#ifdef DEBUG_MASK
#define DPRINTF(mask, fmt, ...) \
	do { if ((DEBUG_MASK) & (mask)) printk(KERN_DEBUG fmt, ##__VA_ARGS__); } while (0)
#else
#define DPRINTF(mask, fmt, ...) do { } while (0)
#endif

/*
 * panic() prints the message and a backtrace on every console, then stops
 * the machine (under QEMU it ends the run with the failure verdict).
 */
void panic(const char *fmt, ...) __printf(1, 2) __noreturn;

#define KASSERT(cond) \
	do { if (unlikely(!(cond))) \
		panic("assertion \"%s\" failed at %s:%d", #cond, __FILE__, __LINE__); \
	} while (0)

#define BUG_ON(cond)	KASSERT(!(cond))

/* Warn once per call site, keep going. */
#define WARN_ON(cond) ({ \
	static bool __warned; \
	bool __c = !!(cond); \
	if (unlikely(__c) && !__warned) { \
		__warned = true; \
		pr_warn("WARNING: %s at %s:%d\n", #cond, __FILE__, __LINE__); \
	} \
	__c; })

#endif
