UNIT_TESTS += fbcon
fbcon_SRCS := tests/unit/test_fbcon.c kernel/fbcon_draw.c $(BUILD)/gen/fbcon_font.c
