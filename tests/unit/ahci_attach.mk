UNIT_TESTS += ahci_attach
ahci_attach_SRCS := tests/unit/test_ahci_attach.c tests/unit/fakes/gendisk_fake.c \
	block/genhd_sd.c drivers/ahci/ahci.c drivers/ahci/ahci_port.c drivers/ahci/ahci_cmd.c drivers/ahci/ahci_link.c drivers/ahci/ahci_late.c \
	drivers/ahci/ahci_eh.c drivers/ahci/ahci_io.c drivers/ahci/ahci_disk.c lib/errstr.c lib/vsprintf.c \
	tests/unit/fakes/bdev_fake.c tests/unit/fakes/param_num_fake.c $(UNIT_ATA) $(UNIT_BLOCK_CORE)
