/*
 * The two halves of a panic, for code that prints its own report first
 * (the exception handler): panic_begin() makes printk lock-free and
 * stops interrupts; panic_end() prints the reason and stops the machine.
 * panic() in kernel/printk.h is both, with a backtrace between.
 */
#ifndef KERNEL_PANIC_H
#define KERNEL_PANIC_H

#include "kernel/compiler.h"

extern volatile bool panic_in_progress;

void panic_begin(void);
void __noreturn panic_end(const char *reason);

#endif
