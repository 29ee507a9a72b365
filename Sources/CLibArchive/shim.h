// The system libarchive (Debian's libarchive-dev), for `merge`: the parts of a render given as .tar,
// .tar.gz or .tgz files are read in-process, member by member, instead of unpacked by a `tar` child
// process (which kept setuid bits, made device nodes, followed no limits, and outlived a killed merge).
// Only CArchiveShim and MergeParts use it.
#ifndef CLIBARCHIVE_SHIM_H
#define CLIBARCHIVE_SHIM_H

#include <archive.h>
#include <archive_entry.h>

#endif
