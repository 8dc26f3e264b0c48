UNIT_TESTS += acpi
acpi_SRCS := tests/unit/test_acpi.c kernel/acpi.c kernel/apic_encode.c \
	tests/unit/fakes/slab_fake.c
