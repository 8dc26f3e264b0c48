UNIT_TESTS += mm_mempool
mm_mempool_SRCS := tests/unit/test_mempool.c kernel/mm/mempool.c kernel/mm/slab.c \
		   kernel/mm/page_alloc.c tests/unit/fakes/mm_linear_fake.c \
		   tests/unit/fakes/child_panic.c tests/unit/fakes/idle_fake.c lib/strutil.c
