// Pixel comparison of bitmaps and frame sequences (being built).
