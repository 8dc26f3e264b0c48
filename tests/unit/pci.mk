UNIT_TESTS += pci
pci_SRCS := tests/unit/test_pci.c drivers/pci/pci.c drivers/pci/pci_class.c \
	tests/unit/fakes/pci_fake.c tests/unit/fakes/slab_fake.c lib/strutil.c lib/errstr.c
