// See include/carc_shim.h for why this file exists.
#define _GNU_SOURCE
#include "carc_shim.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

_Static_assert(CARC_EOF == ARCHIVE_EOF && CARC_OK == ARCHIVE_OK && CARC_WARN == ARCHIVE_WARN, "libarchive's status codes");

// libarchive is loaded on first use (carc_load), not linked. Its header gives each function's type;
// every call goes through `api`, so this file references none of its symbols.
#define CARC_FUNCTIONS(X) \
    X(archive_read_new) X(archive_read_support_format_tar) X(archive_read_support_filter_gzip) \
    X(archive_read_support_filter_none) X(archive_read_open_fd) X(archive_read_free) X(archive_error_string) \
    X(archive_errno) X(archive_read_next_header) X(archive_read_data_skip) X(archive_read_data) \
    X(archive_filter_bytes) X(archive_entry_pathname) X(archive_entry_hardlink) X(archive_entry_symlink) \
    X(archive_entry_filetype) X(archive_entry_mode) X(archive_entry_size_is_set) X(archive_entry_size)

#define CARC_FIELD(name) __typeof__(&name) name;
static struct { CARC_FUNCTIONS(CARC_FIELD) } api;
#undef CARC_FIELD

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[512];

static void load(void) {
    // The soname of libarchive 3 (Debian's libarchive13); never the unversioned development link.
    void *library = dlopen("libarchive.so.13", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "cannot load libarchive (%s); install libarchive (Debian's libarchive13)",
                 why ? why : "libarchive.so.13 not found");
        return;
    }
#define CARC_BIND(name) \
    if (!(api.name = (__typeof__(&name))dlsym(library, #name))) { \
        snprintf(load_error, sizeof load_error, "cannot load libarchive: it has no %s", #name); \
        return; \
    }
    CARC_FUNCTIONS(CARC_BIND)
#undef CARC_BIND
    loaded = 1;
}

int carc_load(char *error, size_t error_size) {
    pthread_once(&load_once, load);
    if (loaded) return 0;
    if (error && error_size) snprintf(error, error_size, "%s", load_error);
    return -1;
}

struct archive *carc_open_fd(int fd, char *error, size_t error_size) {
    if (carc_load(error, error_size) != 0) return NULL;
    struct archive *a = api.archive_read_new();
    if (a == NULL) { snprintf(error, error_size, "out of memory"); return NULL; }
    // ARCHIVE_WARN from a filter means "will run an external program": refused.
    if (api.archive_read_support_format_tar(a) != ARCHIVE_OK || api.archive_read_support_filter_gzip(a) != ARCHIVE_OK
        || api.archive_read_support_filter_none(a) != ARCHIVE_OK) {
        snprintf(error, error_size, "this libarchive cannot read gzip in-process");
        api.archive_read_free(a);
        return NULL;
    }
    if (api.archive_read_open_fd(a, fd, 65536) != ARCHIVE_OK) {
        const char *why = api.archive_error_string(a);
        snprintf(error, error_size, "%s", why ? why : "not a tar archive");
        api.archive_read_free(a);
        return NULL;
    }
    return a;
}

int carc_read_free(struct archive *a) { return api.archive_read_free(a); }
const char *carc_error_string(struct archive *a) { return api.archive_error_string(a); }
int carc_errno(struct archive *a) { return api.archive_errno(a); }
int carc_read_next_header(struct archive *a, struct archive_entry **entry) { return api.archive_read_next_header(a, entry); }
int carc_read_data_skip(struct archive *a) { return api.archive_read_data_skip(a); }
ssize_t carc_read_data(struct archive *a, void *buffer, size_t size) { return api.archive_read_data(a, buffer, size); }
int64_t carc_filter_bytes(struct archive *a, int filter) { return api.archive_filter_bytes(a, filter); }
const char *carc_entry_pathname(struct archive_entry *entry) { return api.archive_entry_pathname(entry); }
const char *carc_entry_hardlink(struct archive_entry *entry) { return api.archive_entry_hardlink(entry); }
const char *carc_entry_symlink(struct archive_entry *entry) { return api.archive_entry_symlink(entry); }
mode_t carc_entry_filetype(struct archive_entry *entry) { return api.archive_entry_filetype(entry); }
mode_t carc_entry_mode(struct archive_entry *entry) { return api.archive_entry_mode(entry); }
int carc_entry_size_is_set(struct archive_entry *entry) { return api.archive_entry_size_is_set(entry); }
int64_t carc_entry_size(struct archive_entry *entry) { return api.archive_entry_size(entry); }

int carc_rename_noreplace(const char *from, const char *to) {
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}

struct carc_dirent64 {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

// Empties the folder open on `fd` (closing it), at most `depth` levels down.
static int empty_folder(int fd, int depth) {
    char buffer[4096];
    int failed = 0;
    for (;;) {
        long n = syscall(SYS_getdents64, fd, buffer, sizeof buffer);
        if (n < 0) { if (errno == EINTR) continue; failed = 1; break; }
        if (n == 0) break;
        int removed_any = 0;
        for (long offset = 0; offset < n;) {
            struct carc_dirent64 *entry = (struct carc_dirent64 *)(buffer + offset);
            offset += entry->d_reclen;
            const char *name = entry->d_name;
            if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
            if (unlinkat(fd, name, 0) == 0) { removed_any = 1; continue; }
            if (errno != EISDIR && errno != EPERM) { failed = 1; continue; }
            int child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (child < 0 || depth <= 0) { if (child >= 0) close(child); failed = 1; continue; }
            if (empty_folder(child, depth - 1) != 0) failed = 1;
            if (unlinkat(fd, name, AT_REMOVEDIR) == 0) removed_any = 1; else failed = 1;
        }
        // Entries were removed while reading: start again from the beginning until nothing is left.
        if (removed_any) lseek(fd, 0, SEEK_SET);
        else if (failed) break;
    }
    close(fd);
    return failed ? -1 : 0;
}

int carc_remove_tree(const char *path) {
    struct stat info;
    if (lstat(path, &info) != 0) return errno == ENOENT ? 0 : -1;
    if (!S_ISDIR(info.st_mode)) return unlink(path);
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return -1;
    int emptied = empty_folder(fd, 64);
    if (rmdir(path) != 0) return -1;
    return emptied;
}

static char cleanup_paths[CARC_CLEANUP_SLOTS][4096];
static volatile sig_atomic_t cleanup_used[CARC_CLEANUP_SLOTS];

static void cleanup_on_signal(int signal_number) {
    int saved = errno;
    for (int k = 0; k < CARC_CLEANUP_SLOTS; k++) {
        if (cleanup_used[k]) { carc_remove_tree(cleanup_paths[k]); cleanup_used[k] = 0; }
    }
    errno = saved;
    struct sigaction plain;
    memset(&plain, 0, sizeof plain);
    plain.sa_handler = SIG_DFL;
    sigemptyset(&plain.sa_mask);
    sigaction(signal_number, &plain, NULL);
    raise(signal_number);
}

void carc_cleanup_install(void) {
    static int installed = 0;
    if (installed) return;
    installed = 1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = cleanup_on_signal;
    sigfillset(&action.sa_mask);
    int signals[] = { SIGINT, SIGTERM, SIGHUP };
    for (unsigned k = 0; k < sizeof signals / sizeof signals[0]; k++) {
        struct sigaction old;
        // A signal ignored by the parent (nohup) stays ignored.
        if (sigaction(signals[k], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        sigaction(signals[k], &action, NULL);
    }
}

int carc_cleanup_add(const char *path) {
    size_t length = strlen(path);
    if (length >= sizeof cleanup_paths[0]) return -1;
    for (int k = 0; k < CARC_CLEANUP_SLOTS; k++) {
        if (!cleanup_used[k]) {
            memcpy(cleanup_paths[k], path, length + 1);
            cleanup_used[k] = 1;
            return k;
        }
    }
    return -1;
}

void carc_cleanup_remove(int slot) {
    if (slot >= 0 && slot < CARC_CLEANUP_SLOTS) cleanup_used[slot] = 0;
}

int carc_mkdtemp_registered(char *template_path) {
    sigset_t blocked, previous;
    sigemptyset(&blocked);
    sigaddset(&blocked, SIGINT);
    sigaddset(&blocked, SIGTERM);
    sigaddset(&blocked, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &blocked, &previous);
    int slot = -1;
    if (mkdtemp(template_path) != NULL) {
        slot = carc_cleanup_add(template_path);
        if (slot < 0) slot = CARC_CLEANUP_SLOTS;
    }
    int saved = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    errno = saved;
    return slot;
}
