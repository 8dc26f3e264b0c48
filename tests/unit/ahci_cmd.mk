UNIT_TESTS += ahci_cmd
ahci_cmd_SRCS := tests/unit/test_ahci_cmd.c drivers/ahci/ahci_cmd.c drivers/ahci/ahci_link.c drivers/ata/ata_cmd.c
