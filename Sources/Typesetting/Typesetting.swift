// Text layout and glyph rasterization through FreeType (being built).
