// The reporter's native scanner: what `find POINT... -xdev [prune] ( -type d -o -links 1 ) -printf SHORT -o
// -printf LONG` measures (lib/reporter/find-process.ts), printed for lib/reporter/native-parser.ts to read at
// less cost than find's output: no expression to evaluate and no printf format to interpret per entry, one
// fstatat per entry relative to its folder's descriptor (the kernel resolves one name, not the whole path),
// numbers written by hand into one large output buffer, and each folder's entries together under its path
// printed once (the reader decodes one folder path per folder, not one path per entry).
//
//   scan [-p PRUNE]... [-k K/N] (-d FOLDER | -s FOLDER)...
//
// -d: the folder and everything below it. -s: the folder's entries (not the folder itself) and everything
// below them, shared out between N processes given the same start points and -k 0/N ... -k N-1/N: process K
// takes the entries whose names hash to K (FNV-1a, mixed, modulo N: a name added or removed during the scan
// moves no other name to another process, so nothing is measured twice or missed), and everything below them;
// process 0 reports the errors of the folder itself. Without -k, one process takes all (0/1).
//
// Records, each ended by a NUL byte (the mtime is whole seconds: the reader reads no more of it):
//   S                                 a start point begins (one per -d or -s, in order, even one left out)
//   DPATH                             the entries that follow are in the folder PATH (as the start point is
//                                     given, and below it); a folder with no entry to print has none
//   DEV BLOCKS SIZE MTIME TYPE NAME   an entry with one link, or a folder
//   HDEV INO NLINK BLOCKS SIZE MTIME TYPE NAME   a file with hard links
// An entry before the start point's first D record, with an empty NAME, is the start point itself. A folder's
// entries come before anything below it: its subfolders are walked after it has been read whole.
// It never follows symbolic links, never goes into another filesystem (an entry on another device is left out
// whole, as du -x does), and leaves out a path given with -p and everything inside it. Errors go to stderr as
// find words them ("scan: 'PATH': Permission denied"); an entry that vanished is skipped in silence.
// Exit status: 0, or 1 when an entry could not be read (as find); 2 on bad usage; 3 when the tree is deeper than
// the descriptors it may hold or MAX_DEPTH (the reporter measures again with find).
//
// It calls the kernel through syscall() for stat and open so that it needs no symbol newer than glibc 2.2.5:
// it runs on any x86_64 glibc system. Elsewhere it cannot run, and the reporter uses find.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static char out[1 << 18];
static size_t outLen;
static int status;

static void flush(void) {
  size_t off = 0;
  while (off < outLen) {
    ssize_t n = write(1, out + off, outLen - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      _exit(4); // the reader is gone
    }
    off += (size_t)n;
  }
  outLen = 0;
}

static void put(const char *s, size_t n) {
  if (n > sizeof out) {
    flush();
    size_t off = 0;
    while (off < n) {
      ssize_t w = write(1, s + off, n - off);
      if (w < 0) {
        if (errno == EINTR) continue;
        _exit(4);
      }
      off += (size_t)w;
    }
    return;
  }
  if (outLen + n > sizeof out) flush();
  memcpy(out + outLen, s, n);
  outLen += n;
}

/** Appends an unsigned number and a space (device and inode numbers may use all 64 bits, as find's %D and %i). */
static char *unum(char *p, uint64_t u) {
  char tmp[24];
  int k = 0;
  do {
    tmp[k++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  while (k) *p++ = tmp[--k];
  *p++ = ' ';
  return p;
}

/** Appends a signed number and a space (an mtime before 1970 is negative). */
static char *num(char *p, int64_t v) {
  if (v >= 0) return unum(p, (uint64_t)v);
  *p++ = '-';
  return unum(p, (uint64_t)(-(v + 1)) + 1);
}

static char typeOf(mode_t m) {
  switch (m & S_IFMT) {
    case S_IFDIR: return 'd';
    case S_IFREG: return 'f';
    case S_IFLNK: return 'l';
    case S_IFIFO: return 'p';
    case S_IFSOCK: return 's';
    case S_IFCHR: return 'c';
    case S_IFBLK: return 'b';
    default: return 'U';
  }
}

static void record(const struct stat *st, const char *name, size_t len) {
  char head[160];
  char *p = head;
  int isDir = S_ISDIR(st->st_mode);
  if (!isDir && st->st_nlink != 1) {
    *p++ = 'H';
    p = unum(p, (uint64_t)st->st_dev);
    p = unum(p, (uint64_t)st->st_ino);
    p = unum(p, (uint64_t)st->st_nlink);
  } else {
    p = unum(p, (uint64_t)st->st_dev);
  }
  p = unum(p, (uint64_t)st->st_blocks);
  p = unum(p, (uint64_t)st->st_size);
  p = num(p, (int64_t)st->st_mtim.tv_sec);
  *p++ = typeOf(st->st_mode);
  *p++ = ' ';
  put(head, (size_t)(p - head));
  put(name, len);
  put("", 1);
}

/**
 * glibc's words for the errors a walk can meet, where musl's differ (lib/reporter/scan-errors.ts reads the code
 * from the words, and the report carries them as find would print them).
 */
static const char *glibcWords(int err) {
  switch (err) {
    case ELOOP: return "Too many levels of symbolic links";
    case EIO: return "Input/output error";
    case ENAMETOOLONG: return "File name too long";
    case ENOMEM: return "Cannot allocate memory";
    case ESTALE: return "Stale file handle";
    default: return strerror(err);
  }
}

/** An error line as find prints it (a backslash or a line break in the path escaped), glibc's wording. */
static void complain(const char *path, int err) {
  flush();
  const char *msg = glibcWords(err);
  size_t n = strlen(path);
  char *line = malloc(n * 2 + strlen(msg) + 16);
  if (!line) _exit(4);
  char *p = line;
  memcpy(p, "scan: '", 7);
  p += 7;
  for (size_t k = 0; k < n; k++) {
    if (path[k] == '\\' || path[k] == '\n') *p++ = '\\';
    *p++ = path[k] == '\n' ? 'n' : path[k];
  }
  memcpy(p, "': ", 3);
  p += 3;
  strcpy(p, msg);
  p += strlen(msg);
  *p++ = '\n';
  ssize_t ignored = write(2, line, (size_t)(p - line));
  (void)ignored;
  free(line);
  status = 1;
}

static int statAt(int dirfd, const char *name, struct stat *st) {
  return (int)syscall(SYS_newfstatat, dirfd, name, st, AT_SYMLINK_NOFOLLOW);
}

/**
 * Opens the folder `name` (relative to `dirfd`) to read it, or says why not (as `shown`; nothing when it
 * vanished or `shown` is NULL) and returns -1. Out of descriptors, it gives up: exit 3, and the reporter
 * measures again with find.
 */
static int openDir(int dirfd, const char *name, const char *shown) {
  int fd = (int)syscall(SYS_openat, dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0) return fd;
  if (errno == EMFILE || errno == ENFILE) {
    flush();
    _exit(3);
  }
  if (errno != ENOENT && shown) complain(shown, errno);
  return -1;
}

static char **prunes;
static int pruneCount;

static int pruned(const char *path) {
  for (int k = 0; k < pruneCount; k++)
    if (strcmp(prunes[k], path) == 0) return 1;
  return 0;
}

/** The path being measured: grows as the walk goes deeper. */
static char *path;
static size_t pathCap;

static void reserve(size_t n) {
  if (n <= pathCap) return;
  while (pathCap < n) pathCap = pathCap ? pathCap * 2 : 4096;
  path = realloc(path, pathCap);
  if (!path) _exit(4);
}

/** This process's share of the -s folders' entries: K of N. */
static unsigned shareK = 0, shareN = 1;

/** Reads "K/N" into the share; 0 when it is not two numbers with K < N. */
static int share(const char *s) {
  unsigned v[2] = {0, 0};
  for (int i = 0; i < 2; i++) {
    if (*s < '0' || *s > '9') return 0;
    while (*s >= '0' && *s <= '9' && v[i] < 100000) v[i] = v[i] * 10 + (unsigned)(*s++ - '0');
    if (*s++ != (i == 0 ? '/' : 0)) return 0;
  }
  shareK = v[0];
  shareN = v[1];
  return shareK < shareN;
}

/** Whether the entry `name` of a -s folder is this process's (a hash of its bytes, modulo N). */
static int mine(const char *name) {
  uint32_t h = 2166136261u;
  for (const unsigned char *c = (const unsigned char *)name; *c; c++) h = (h ^ *c) * 16777619u;
  // mixed (MurmurHash3's finalizer) so that names alike but for their last characters spread evenly
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h % shareN == shareK;
}

/**
 * Folders open at once, one per level of the walk: past it the scanner gives up (exit 3) and the reporter
 * measures with find, whose walk has no such bound, rather than run out of stack on a runaway tree (a folder
 * copied into itself over and over).
 */
#define MAX_DEPTH 4096
static int depth;

/**
 * The names of the folders to walk once their folder has been read (each ended by NUL), for every level of the
 * walk at once: a level's names are pushed on top and popped when it is done. One buffer that only grows: no
 * allocation per folder.
 */
static char *names;
static size_t namesLen, namesCap;

static void keep(const char *name, size_t n) {
  if (namesLen + n + 1 > namesCap) {
    while (namesLen + n + 1 > namesCap) namesCap = namesCap ? namesCap * 2 : 4096;
    names = realloc(names, namesCap);
    if (!names) _exit(4);
  }
  memcpy(names + namesLen, name, n + 1);
  namesLen += n + 1;
}

/**
 * A folder's entries, read straight from the kernel (getdents64) into one buffer: a folder is read whole
 * before anything below it, so one buffer serves every level, and there is no DIR stream to set up (fstat and
 * two fcntl calls per folder) or to allocate.
 */
struct linuxDirent64 {
  uint64_t ino;
  int64_t off;
  unsigned short reclen;
  unsigned char type;
  char name[];
};
static char entries[1 << 16] __attribute__((aligned(8)));

/** The D record of the folder whose path is path[0..len). */
static void folderRecord(size_t len) {
  put("D", 1);
  put(path, len);
  put("", 1);
}

/** What walk measures of a folder: everything below it, or (-s) this process's share of its entries. */
enum { ALL, SHARE };

/** Whether the errors of a folder walked with `what` are another process's to report (-s: process 0's). */
static int quietAbout(int what) {
  return what == SHARE && shareK != 0;
}

/**
 * Measures the entries of the folder open at `fd` (whose path is path[0..len)) and everything below them, or
 * with SHARE this process's share of its entries, and closes it.
 */
static void walk(int fd, size_t len, dev_t dev, int what) {
  int quiet = quietAbout(what);
  size_t base = namesLen;
  int headed = 0;
  for (;;) {
    long n = syscall(SYS_getdents64, fd, entries, sizeof entries);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && !quiet) {
      path[len] = 0;
      complain(path, errno);
    }
    if (n <= 0) break;
    for (long at = 0; at < n;) {
      const struct linuxDirent64 *e = (const struct linuxDirent64 *)(entries + at);
      at += e->reclen;
      const char *name = e->name;
      if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
      size_t nlen = strlen(name);
      reserve(len + nlen + 2);
      path[len] = '/';
      memcpy(path + len + 1, name, nlen + 1);
      if (pruneCount && pruned(path)) continue;
      if (what == SHARE && !mine(name)) continue; // another process's share
      struct stat st;
      if (statAt(fd, name, &st) != 0) {
        if (errno != ENOENT) complain(path, errno);
        continue;
      }
      if (st.st_dev != dev) continue; // a mount point: left out, like du -x
      if (!headed) {
        folderRecord(len);
        headed = 1;
      }
      record(&st, name, nlen);
      if (S_ISDIR(st.st_mode)) keep(name, nlen);
    }
  }
  // then below each folder, in the order they were read (each walk below leaves `names` as it found it)
  for (size_t at = base, end = namesLen; at < end;) {
    size_t nlen = strlen(names + at);
    reserve(len + nlen + 2);
    path[len] = '/';
    memcpy(path + len + 1, names + at, nlen + 1);
    at += nlen + 1;
    if (depth == MAX_DEPTH) {
      flush();
      _exit(3);
    }
    int child = openDir(fd, path + len + 1, path);
    if (child < 0) continue;
    depth++;
    walk(child, len + 1 + nlen, dev, ALL);
    depth--;
  }
  namesLen = base;
  close(fd);
}

int main(int argc, char **argv) {
  prunes = calloc((size_t)argc, sizeof *prunes);
  if (!prunes) return 4;
  for (int k = 1; k < argc; k += 2) {
    if (k + 1 >= argc || argv[k][0] != '-' || !argv[k][1] || !strchr("pdsk", argv[k][1]) || argv[k][2]) return 2;
    if (argv[k][1] == 'p') prunes[pruneCount++] = argv[k + 1];
    if (argv[k][1] == 'k' && !share(argv[k + 1])) return 2;
  }
  for (int k = 1; k < argc; k += 2) {
    char opt = argv[k][1];
    if (opt == 'p' || opt == 'k') continue;
    int what = opt == 's' ? SHARE : ALL;
    const char *point = argv[k + 1];
    size_t len = strlen(point);
    reserve(len + 1);
    memcpy(path, point, len + 1);
    put("S", 2);
    if (pruneCount && pruned(path)) continue;
    struct stat st;
    if (statAt(AT_FDCWD, path, &st) != 0) {
      if (errno != ENOENT && !quietAbout(what)) complain(path, errno);
      continue;
    }
    if (what == ALL) record(&st, "", 0);
    if (!S_ISDIR(st.st_mode)) continue;
    int fd = openDir(AT_FDCWD, path, quietAbout(what) ? NULL : path);
    if (fd >= 0) walk(fd, len, st.st_dev, what);
  }
  flush();
  return status;
}
