/*
 * Ending the run.  Under QEMU (tools/run-qemu adds an isa-debug-exit
 * device) the status becomes QEMU's exit code; on real hardware the
 * machine halts with a message, or reboots.  Before a clean exit, reboot
 * or power-off, the shutdown hooks run, last registered first: filesystems
 * write back, then the block layer flushes the disks' write caches.
 */
#ifndef KERNEL_POWER_H
#define KERNEL_POWER_H

#include "lib/list.h"

struct shutdown_hook {
	struct list_head	sh_entry;
	const char		*sh_name;
	void			(*sh_fn)(void);
};

void register_shutdown_hook(struct shutdown_hook *h);

/* status 0: success; anything else: failure. Runs the hooks first. */
void __noreturn machine_exit(int status);
void __noreturn machine_reboot(void);
/* No hooks: for panics. */
void __noreturn machine_fail_now(void);

#endif
