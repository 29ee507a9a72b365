// The system libpng and zlib headers, exposed as one module for CPNGShim.
#include <png.h>
#include <zlib.h>
