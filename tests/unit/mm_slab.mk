UNIT_TESTS += mm_slab
mm_slab_SRCS := tests/unit/test_slab.c kernel/mm/slab.c kernel/mm/page_alloc.c \
		tests/unit/fakes/mm_linear_fake.c tests/unit/fakes/child_panic.c lib/strutil.c
