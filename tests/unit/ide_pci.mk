UNIT_TESTS += ide_pci
ide_pci_SRCS := tests/unit/test_ide_pci.c drivers/ide/ide_pci.c drivers/pci/pci_irq.c drivers/pci/pci_ich.c \
	drivers/pci/pci.c kernel/apic_encode.c tests/unit/fakes/apic_fake.c \
	tests/unit/fakes/pci_fake.c tests/unit/fakes/slab_fake.c lib/errstr.c lib/strutil.c \
	lib/vsprintf.c tests/unit/fakes/ide_attach_fake.c \
	tests/unit/fakes/param_num_fake.c
