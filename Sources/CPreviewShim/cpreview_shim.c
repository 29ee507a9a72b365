#include "cpreview_shim.h"

#include <gif_lib.h>
#include <libimagequant.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct cprev_gif {
    int width, height;
    liq_attr *attr;
    liq_histogram *histogram;
    liq_result *result;
    GifFileType *file;
    uint8_t *indices;
    /* The GIF in memory: giflib writes through `write_out`. */
    uint8_t *data;
    size_t size, capacity;
    int failed_write;
};

static void say(char *error, size_t size, const char *message) {
    if (error && size) snprintf(error, size, "%s", message);
}

static int write_out(GifFileType *file, const GifByteType *bytes, int count) {
    cprev_gif *gif = (cprev_gif *)file->UserData;
    if (count <= 0) return count;
    if (gif->size + (size_t)count > gif->capacity) {
        size_t capacity = gif->capacity ? gif->capacity : 65536;
        while (capacity < gif->size + (size_t)count) capacity *= 2;
        uint8_t *grown = realloc(gif->data, capacity);
        if (!grown) { gif->failed_write = 1; return 0; }
        gif->data = grown;
        gif->capacity = capacity;
    }
    memcpy(gif->data + gif->size, bytes, (size_t)count);
    gif->size += (size_t)count;
    return count;
}

cprev_gif *cprev_gif_create(int width, int height) {
    if (width < 1 || height < 1 || width > 65535 || height > 65535) return NULL;
    cprev_gif *gif = calloc(1, sizeof *gif);
    if (!gif) return NULL;
    gif->width = width;
    gif->height = height;
    gif->attr = liq_attr_create();
    gif->indices = malloc((size_t)width * (size_t)height);
    if (!gif->attr || !gif->indices) { cprev_gif_destroy(gif); return NULL; }
    gif->histogram = liq_histogram_create(gif->attr);
    if (!gif->histogram) { cprev_gif_destroy(gif); return NULL; }
    return gif;
}

int cprev_gif_add_colors(cprev_gif *gif, const uint8_t *rgba, char *error, size_t error_size) {
    liq_image *image = liq_image_create_rgba(gif->attr, rgba, gif->width, gif->height, 0);
    if (!image) { say(error, error_size, "libimagequant could not take the frame"); return 1; }
    liq_error e = liq_histogram_add_image(gif->histogram, gif->attr, image);
    liq_image_destroy(image);
    if (e != LIQ_OK) { say(error, error_size, "libimagequant could not add the frame's colours"); return 1; }
    return 0;
}

int cprev_gif_choose_palette(cprev_gif *gif, int speed, float dithering, char *error, size_t error_size) {
    liq_set_speed(gif->attr, speed < 1 ? 1 : speed > 10 ? 10 : speed);
    liq_set_max_colors(gif->attr, 256);
    liq_error e = liq_histogram_quantize(gif->histogram, gif->attr, &gif->result);
    if (e != LIQ_OK || !gif->result) { say(error, error_size, "libimagequant could not choose a palette"); return 1; }
    liq_set_dithering_level(gif->result, dithering < 0 ? 0 : dithering > 1 ? 1 : dithering);

    const liq_palette *palette = liq_get_palette(gif->result);
    int count = 2;
    while (count < (int)palette->count) count *= 2;  /* GIF colour tables are powers of two */
    ColorMapObject *map = GifMakeMapObject(count, NULL);
    if (!map) { say(error, error_size, "out of memory for the palette"); return 1; }
    memset(map->Colors, 0, sizeof(GifColorType) * (size_t)count);
    for (unsigned i = 0; i < palette->count; i++) {
        map->Colors[i].Red = palette->entries[i].r;
        map->Colors[i].Green = palette->entries[i].g;
        map->Colors[i].Blue = palette->entries[i].b;
    }
    int gif_error = 0;
    gif->file = EGifOpen(gif, write_out, &gif_error);
    if (!gif->file) { GifFreeMapObject(map); say(error, error_size, GifErrorString(gif_error)); return 1; }
    EGifSetGifVersion(gif->file, true);
    if (EGifPutScreenDesc(gif->file, gif->width, gif->height, 8, 0, map) == GIF_ERROR) {
        GifFreeMapObject(map);
        say(error, error_size, GifErrorString(gif->file->Error));
        return 1;
    }
    GifFreeMapObject(map);
    /* NETSCAPE2.0: loop forever. */
    unsigned char loop[3] = {1, 0, 0};
    if (EGifPutExtensionLeader(gif->file, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR
        || EGifPutExtensionBlock(gif->file, 11, "NETSCAPE2.0") == GIF_ERROR
        || EGifPutExtensionBlock(gif->file, 3, loop) == GIF_ERROR
        || EGifPutExtensionTrailer(gif->file) == GIF_ERROR) {
        say(error, error_size, GifErrorString(gif->file->Error));
        return 1;
    }
    return 0;
}

int cprev_gif_add_frame(cprev_gif *gif, const uint8_t *rgba, int delay_cs, char *error, size_t error_size) {
    if (!gif->file || !gif->result) { say(error, error_size, "no palette chosen yet"); return 1; }
    liq_image *image = liq_image_create_rgba(gif->attr, rgba, gif->width, gif->height, 0);
    if (!image) { say(error, error_size, "libimagequant could not take the frame"); return 1; }
    size_t pixels = (size_t)gif->width * (size_t)gif->height;
    liq_error e = liq_write_remapped_image(gif->result, image, gif->indices, pixels);
    liq_image_destroy(image);
    if (e != LIQ_OK) { say(error, error_size, "libimagequant could not map the frame to the palette"); return 1; }

    GraphicsControlBlock control = {0};
    control.DisposalMode = DISPOSE_DO_NOT;
    control.DelayTime = delay_cs < 0 ? 0 : delay_cs > 65535 ? 65535 : delay_cs;
    control.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType extension[4];
    size_t length = EGifGCBToExtension(&control, extension);
    if (EGifPutExtension(gif->file, GRAPHICS_EXT_FUNC_CODE, (int)length, extension) == GIF_ERROR
        || EGifPutImageDesc(gif->file, 0, 0, gif->width, gif->height, false, NULL) == GIF_ERROR) {
        say(error, error_size, GifErrorString(gif->file->Error));
        return 1;
    }
    for (int y = 0; y < gif->height; y++) {
        if (EGifPutLine(gif->file, gif->indices + (size_t)y * (size_t)gif->width, gif->width) == GIF_ERROR) {
            say(error, error_size, GifErrorString(gif->file->Error));
            return 1;
        }
    }
    if (gif->failed_write) { say(error, error_size, "out of memory for the GIF"); return 1; }
    return 0;
}

int cprev_gif_finish(cprev_gif *gif, uint8_t **out, size_t *out_size, char *error, size_t error_size) {
    *out = NULL;
    *out_size = 0;
    if (!gif->file) { say(error, error_size, "no palette chosen yet"); return 1; }
    int gif_error = 0;
    int closed = EGifCloseFile(gif->file, &gif_error);
    gif->file = NULL;
    if (closed == GIF_ERROR) { say(error, error_size, GifErrorString(gif_error)); return 1; }
    if (gif->failed_write) { say(error, error_size, "out of memory for the GIF"); return 1; }
    *out = gif->data;
    *out_size = gif->size;
    gif->data = NULL;
    gif->size = gif->capacity = 0;
    return 0;
}

void cprev_gif_destroy(cprev_gif *gif) {
    if (!gif) return;
    if (gif->file) { int ignored = 0; EGifCloseFile(gif->file, &ignored); }
    if (gif->result) liq_result_destroy(gif->result);
    if (gif->histogram) liq_histogram_destroy(gif->histogram);
    if (gif->attr) liq_attr_destroy(gif->attr);
    free(gif->indices);
    free(gif->data);
    free(gif);
}

void cprev_free(void *pointer) { free(pointer); }

uint32_t cprev_crc32(uint32_t crc, const uint8_t *data, size_t size) {
    /* zlib takes uInt lengths: feed it in pieces. */
    uLong c = crc;
    while (size > 0) {
        uInt piece = size > 0x40000000u ? 0x40000000u : (uInt)size;
        c = crc32(c, data, piece);
        data += piece;
        size -= piece;
    }
    return (uint32_t)c;
}
