UNIT_TESTS += ide_prd
ide_prd_SRCS := tests/unit/test_ide_prd.c drivers/ide/ide_prd.c drivers/ata/ata_decode.c
