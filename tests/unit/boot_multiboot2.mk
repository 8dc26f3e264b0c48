UNIT_TESTS += boot_multiboot2
boot_multiboot2_SRCS := tests/unit/test_multiboot2.c kernel/multiboot2.c kernel/bootinfo.c \
	lib/string.c lib/strutil.c
