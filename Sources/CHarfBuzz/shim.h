// The system HarfBuzz headers, exposed as one module for Typesetting. HarfBuzz reports failure through
// return values and an "allocation successful" flag on buffers (no longjmp), so Swift calls it directly.
#include <hb.h>
#include <hb-ot.h>
