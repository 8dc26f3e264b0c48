UNIT_TESTS += mm_memmap
mm_memmap_SRCS := tests/unit/test_memmap.c kernel/mm/memmap.c
