UNIT_TESTS += nvme_lib
nvme_lib_SRCS := tests/unit/test_nvme_lib.c drivers/nvme/nvme_prp.c drivers/nvme/nvme_sgl.c \
	drivers/nvme/nvme_status.c drivers/nvme/nvme_ident.c
