// Why this C exists: the few things `merge` needs that Swift cannot do safely by itself.
//
// - `carc_open_fd`: a libarchive reader for tar (ustar, pax, GNU) with gzip or no compression and
//   nothing else, checked to be built in: libarchive falls back to running an external program for
//   filters it was built without, and merge runs no child process.
// - `carc_load` and the `carc_read_*`/`carc_entry_*` functions: libarchive is not linked but loaded
//   with dlopen the first time merge reads an archive, so that every other run of the tool does not map
//   it and the seven libraries it brings (XML, ACL, a crypto library, four compressors). Swift calls
//   libarchive only through these functions, which have libarchive's arguments and results.
// - `carc_rename_noreplace`: renameat2(RENAME_NOREPLACE), which Swift's Glibc module does not export
//   (it is behind _GNU_SOURCE); called through syscall(2) so older C libraries work too.
// - `carc_remove_tree`: removes a folder tree without following any symbolic link, with system calls
//   only (openat, getdents64, unlinkat), so it can run in a signal handler.
// - `carc_cleanup_*`: up to CARC_CLEANUP_SLOTS folders removed when SIGINT, SIGTERM or SIGHUP arrives
//   (then the signal's default action runs), so an interrupted merge leaves no scratch or staging.
#ifndef CARC_SHIM_H
#define CARC_SHIM_H

#include <stddef.h>
#include <stdint.h>

#include <sys/types.h>

struct archive;
struct archive_entry;

#define CARC_CLEANUP_SLOTS 64

/** libarchive's ARCHIVE_EOF, ARCHIVE_OK and ARCHIVE_WARN (checked against its header). */
#define CARC_EOF 1
#define CARC_OK 0
#define CARC_WARN (-20)

/** Loads libarchive (once; later calls give the first call's answer): 0, or -1 with a message in
 *  `error` naming the library and the package to install. */
int carc_load(char *error, size_t error_size);

/** A reader of the archive open on `fd` (tar, gzip or uncompressed); NULL with a reason in `error`.
 *  Call carc_load first: NULL with its message when libarchive cannot be loaded. */
struct archive *carc_open_fd(int fd, char *error, size_t error_size);

/** libarchive's functions of the same names (archive_read_free, archive_error_string, …), through the
 *  library carc_load loaded. */
int carc_read_free(struct archive *a);
const char *carc_error_string(struct archive *a);
int carc_errno(struct archive *a);
int carc_read_next_header(struct archive *a, struct archive_entry **entry);
int carc_read_data_skip(struct archive *a);
ssize_t carc_read_data(struct archive *a, void *buffer, size_t size);
int64_t carc_filter_bytes(struct archive *a, int filter);
const char *carc_entry_pathname(struct archive_entry *entry);
const char *carc_entry_hardlink(struct archive_entry *entry);
const char *carc_entry_symlink(struct archive_entry *entry);
mode_t carc_entry_filetype(struct archive_entry *entry);
mode_t carc_entry_mode(struct archive_entry *entry);
int carc_entry_size_is_set(struct archive_entry *entry);
int64_t carc_entry_size(struct archive_entry *entry);

/** renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE): 0, or -1 with errno (EEXIST when `to` exists). */
int carc_rename_noreplace(const char *from, const char *to);

/** Removes `path` and everything under it, never following a symbolic link (a link is removed, not
 *  followed). 0 when it is gone, -1 with errno otherwise. Async-signal-safe. */
int carc_remove_tree(const char *path);

/** mkdtemp(`template`) with SIGINT, SIGTERM and SIGHUP blocked until the new folder is registered for
 *  removal on a signal, so no signal can leave it behind: the slot (or CARC_CLEANUP_SLOTS when every
 *  slot is taken: made, not registered), or -1 with errno when mkdtemp failed. */
int carc_mkdtemp_registered(char *template_path);
/** Installs the SIGINT/SIGTERM/SIGHUP handler (once). */
void carc_cleanup_install(void);
/** Registers `path` (an absolute path, at most 4095 bytes) to be removed on a signal: a slot number, or -1. */
int carc_cleanup_add(const char *path);
/** Forgets slot `slot` (the folder was removed or published). */
void carc_cleanup_remove(int slot);

#endif
