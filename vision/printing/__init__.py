"""The physical side: the printed map, sticker sheets, and the files that describe them."""
