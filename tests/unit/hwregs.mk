UNIT_TESTS += hwregs
hwregs_SRCS := tests/unit/test_hwregs.c drivers/ata/ata_cmd.c drivers/ata/ata_decode.c
