UNIT_TESTS += pci_msix
pci_msix_SRCS := tests/unit/test_pci_msix.c drivers/pci/pci_msix.c drivers/pci/pci_irq.c \
	drivers/pci/pci_ich.c drivers/pci/pci.c \
	kernel/apic_encode.c tests/unit/fakes/apic_fake.c tests/unit/fakes/pci_fake.c \
	tests/unit/fakes/slab_fake.c lib/errstr.c
