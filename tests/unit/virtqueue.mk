UNIT_TESTS += virtqueue
virtqueue_SRCS := tests/unit/test_virtqueue.c drivers/virtio/virtqueue.c
