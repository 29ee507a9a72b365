#include "cpreview_shim.h"

#include <dlfcn.h>
#include <gif_lib.h>
#include <libimagequant.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/*
 * giflib and libimagequant are loaded on first use (cprev_load), not linked: only GIF previews need them,
 * and every library linked in is mapped and bound at every start of the tool. The headers give each
 * function's type; every call goes through `api`, so this file references none of their symbols.
 */
#define CPREV_GIF_FUNCTIONS(X) \
    X(EGifOpen) X(EGifSetGifVersion) X(EGifPutScreenDesc) X(EGifPutExtensionLeader) X(EGifPutExtensionBlock) \
    X(EGifPutExtensionTrailer) X(EGifGCBToExtension) X(EGifPutExtension) X(EGifPutImageDesc) X(EGifPutLine) \
    X(EGifCloseFile) X(GifMakeMapObject) X(GifFreeMapObject) X(GifErrorString)
#define CPREV_LIQ_FUNCTIONS(X) \
    X(liq_attr_create) X(liq_attr_destroy) X(liq_histogram_create) X(liq_histogram_destroy) \
    X(liq_image_create_rgba_rows) X(liq_image_destroy) X(liq_histogram_add_image) X(liq_set_speed) \
    X(liq_set_max_colors) X(liq_histogram_quantize) X(liq_set_dithering_level) X(liq_get_palette) \
    X(liq_write_remapped_image) X(liq_result_destroy)

#define CPREV_FIELD(name) __typeof__(&name) name;
static struct {
    CPREV_GIF_FUNCTIONS(CPREV_FIELD)
    CPREV_LIQ_FUNCTIONS(CPREV_FIELD)
} api;
#undef CPREV_FIELD

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[512];

/* The first of `names` that dlopen finds, or NULL with the reason (naming `library` and the package
 * that installs it) in load_error. */
static void *open_first(const char *library, const char *package, const char *const *names) {
    char first[256] = "";
    for (const char *const *name = names; *name; name++) {
        void *handle = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
        if (handle) return handle;
        const char *why = dlerror();
        if (name == names) snprintf(first, sizeof first, "%s", why ? why : "not found");
    }
    snprintf(load_error, sizeof load_error, "cannot load %s (%s); install %s", library, first, package);
    return NULL;
}

static void load(void) {
    static const char *const gif_names[] = {"libgif.so.7", NULL};
    static const char *const liq_names[] = {"libimagequant.so.0", NULL};
    void *gif = open_first("giflib", "giflib (Debian's libgif7)", gif_names);
    if (!gif) return;
    void *liq = open_first("libimagequant", "libimagequant (Debian's libimagequant0)", liq_names);
    if (!liq) return;
#define CPREV_BIND(handle, library, name) \
    if (!(api.name = (__typeof__(&name))dlsym(handle, #name))) { \
        snprintf(load_error, sizeof load_error, "cannot load %s: it has no %s", library, #name); \
        return; \
    }
#define CPREV_BIND_GIF(name) CPREV_BIND(gif, "giflib", name)
#define CPREV_BIND_LIQ(name) CPREV_BIND(liq, "libimagequant", name)
    CPREV_GIF_FUNCTIONS(CPREV_BIND_GIF)
    CPREV_LIQ_FUNCTIONS(CPREV_BIND_LIQ)
#undef CPREV_BIND_GIF
#undef CPREV_BIND_LIQ
#undef CPREV_BIND
    loaded = 1;
}

int cprev_load(char *error, size_t error_size) {
    pthread_once(&load_once, load);
    if (loaded) return 0;
    if (error && error_size) snprintf(error, error_size, "%s", load_error);
    return 1;
}

struct cprev_gif {
    int width, height;
    liq_attr *attr;
    liq_histogram *histogram;
    liq_result *result;
    GifFileType *file;
    uint8_t *indices;
    /* One pointer per row of the rectangle being added (libimagequant reads a rectangle by its rows). */
    void **rows;
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
    if (cprev_load(NULL, 0) != 0) return NULL;
    cprev_gif *gif = calloc(1, sizeof *gif);
    if (!gif) return NULL;
    gif->width = width;
    gif->height = height;
    gif->attr = api.liq_attr_create();
    gif->indices = malloc((size_t)width * (size_t)height);
    gif->rows = malloc(sizeof(void *) * (size_t)height);
    if (!gif->attr || !gif->indices || !gif->rows) { cprev_gif_destroy(gif); return NULL; }
    gif->histogram = api.liq_histogram_create(gif->attr);
    if (!gif->histogram) { cprev_gif_destroy(gif); return NULL; }
    return gif;
}

/* A libimagequant image of the `width` x `height` rectangle at (`left`, `top`) of a whole frame `rgba`,
 * or NULL with the reason in `error` (a rectangle outside the frame included). */
static liq_image *rectangle_image(cprev_gif *gif, const uint8_t *rgba, int left, int top, int width, int height,
                                  char *error, size_t error_size) {
    if (left < 0 || top < 0 || width < 1 || height < 1 || width > gif->width - left || height > gif->height - top) {
        say(error, error_size, "the changed rectangle is outside the frame");
        return NULL;
    }
    for (int y = 0; y < height; y++) gif->rows[y] = (void *)(rgba + ((size_t)(top + y) * (size_t)gif->width + (size_t)left) * 4);
    liq_image *image = api.liq_image_create_rgba_rows(gif->attr, gif->rows, width, height, 0);
    if (!image) say(error, error_size, "libimagequant could not take the frame");
    return image;
}

int cprev_gif_add_colors(cprev_gif *gif, const uint8_t *rgba, int left, int top, int width, int height,
                         char *error, size_t error_size) {
    liq_image *image = rectangle_image(gif, rgba, left, top, width, height, error, error_size);
    if (!image) return 1;
    liq_error e = api.liq_histogram_add_image(gif->histogram, gif->attr, image);
    api.liq_image_destroy(image);
    if (e != LIQ_OK) { say(error, error_size, "libimagequant could not add the frame's colours"); return 1; }
    return 0;
}

int cprev_gif_choose_palette(cprev_gif *gif, int speed, float dithering, char *error, size_t error_size) {
    api.liq_set_speed(gif->attr, speed < 1 ? 1 : speed > 10 ? 10 : speed);
    api.liq_set_max_colors(gif->attr, 256);
    liq_error e = api.liq_histogram_quantize(gif->histogram, gif->attr, &gif->result);
    if (e != LIQ_OK || !gif->result) { say(error, error_size, "libimagequant could not choose a palette"); return 1; }
    api.liq_set_dithering_level(gif->result, dithering < 0 ? 0 : dithering > 1 ? 1 : dithering);

    const liq_palette *palette = api.liq_get_palette(gif->result);
    int count = 2;
    while (count < (int)palette->count) count *= 2;  /* GIF colour tables are powers of two */
    ColorMapObject *map = api.GifMakeMapObject(count, NULL);
    if (!map) { say(error, error_size, "out of memory for the palette"); return 1; }
    memset(map->Colors, 0, sizeof(GifColorType) * (size_t)count);
    for (unsigned i = 0; i < palette->count; i++) {
        map->Colors[i].Red = palette->entries[i].r;
        map->Colors[i].Green = palette->entries[i].g;
        map->Colors[i].Blue = palette->entries[i].b;
    }
    int gif_error = 0;
    gif->file = api.EGifOpen(gif, write_out, &gif_error);
    if (!gif->file) { api.GifFreeMapObject(map); say(error, error_size, api.GifErrorString(gif_error)); return 1; }
    api.EGifSetGifVersion(gif->file, true);
    if (api.EGifPutScreenDesc(gif->file, gif->width, gif->height, 8, 0, map) == GIF_ERROR) {
        api.GifFreeMapObject(map);
        say(error, error_size, api.GifErrorString(gif->file->Error));
        return 1;
    }
    api.GifFreeMapObject(map);
    /* NETSCAPE2.0: loop forever. */
    unsigned char loop[3] = {1, 0, 0};
    if (api.EGifPutExtensionLeader(gif->file, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR
        || api.EGifPutExtensionBlock(gif->file, 11, "NETSCAPE2.0") == GIF_ERROR
        || api.EGifPutExtensionBlock(gif->file, 3, loop) == GIF_ERROR
        || api.EGifPutExtensionTrailer(gif->file) == GIF_ERROR) {
        say(error, error_size, api.GifErrorString(gif->file->Error));
        return 1;
    }
    return 0;
}

int cprev_gif_add_frame(cprev_gif *gif, const uint8_t *rgba, int left, int top, int width, int height, int delay_cs,
                        char *error, size_t error_size) {
    if (!gif->file || !gif->result) { say(error, error_size, "no palette chosen yet"); return 1; }
    liq_image *image = rectangle_image(gif, rgba, left, top, width, height, error, error_size);
    if (!image) return 1;
    size_t pixels = (size_t)width * (size_t)height;
    liq_error e = api.liq_write_remapped_image(gif->result, image, gif->indices, pixels);
    api.liq_image_destroy(image);
    if (e != LIQ_OK) { say(error, error_size, "libimagequant could not map the frame to the palette"); return 1; }

    GraphicsControlBlock control = {0};
    control.DisposalMode = DISPOSE_DO_NOT;
    control.DelayTime = delay_cs < 0 ? 0 : delay_cs > 65535 ? 65535 : delay_cs;
    control.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType extension[4];
    size_t length = api.EGifGCBToExtension(&control, extension);
    if (api.EGifPutExtension(gif->file, GRAPHICS_EXT_FUNC_CODE, (int)length, extension) == GIF_ERROR
        || api.EGifPutImageDesc(gif->file, left, top, width, height, false, NULL) == GIF_ERROR) {
        say(error, error_size, api.GifErrorString(gif->file->Error));
        return 1;
    }
    for (int y = 0; y < height; y++) {
        if (api.EGifPutLine(gif->file, gif->indices + (size_t)y * (size_t)width, width) == GIF_ERROR) {
            say(error, error_size, api.GifErrorString(gif->file->Error));
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
    int closed = api.EGifCloseFile(gif->file, &gif_error);
    gif->file = NULL;
    if (closed == GIF_ERROR) { say(error, error_size, api.GifErrorString(gif_error)); return 1; }
    if (gif->failed_write) { say(error, error_size, "out of memory for the GIF"); return 1; }
    *out = gif->data;
    *out_size = gif->size;
    gif->data = NULL;
    gif->size = gif->capacity = 0;
    return 0;
}

void cprev_gif_destroy(cprev_gif *gif) {
    if (!gif) return;
    if (gif->file) { int ignored = 0; api.EGifCloseFile(gif->file, &ignored); }
    if (gif->result) api.liq_result_destroy(gif->result);
    if (gif->histogram) api.liq_histogram_destroy(gif->histogram);
    if (gif->attr) api.liq_attr_destroy(gif->attr);
    free(gif->indices);
    free(gif->rows);
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
