// Why this C exists: the few things `merge` needs that Swift cannot do safely by itself.
//
// - `carc_open_fd`: a libarchive reader for tar (ustar, pax, GNU) with gzip or no compression and
//   nothing else, checked to be built in: libarchive falls back to running an external program for
//   filters it was built without, and merge runs no child process.
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

struct archive;

#define CARC_CLEANUP_SLOTS 64

/** A reader of the archive open on `fd` (tar, gzip or uncompressed); NULL with a reason in `error`. */
struct archive *carc_open_fd(int fd, char *error, size_t error_size);

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
