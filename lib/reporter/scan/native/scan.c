// The reporter's native scanner: what `find POINT... -xdev [prune] ( -type d -o -links 1 ) -printf SHORT -o
// -printf LONG` measures (lib/reporter/scan/find-process.ts), printed for lib/reporter/scan/native-parser.ts to read at
// less cost than find's output: no expression to evaluate and no printf format to interpret per entry, one
// fstatat per entry relative to its folder's descriptor (the kernel resolves one name, not the whole path),
// numbers written by hand into one large output buffer, and each folder's entries together under its path
// printed once (the reader decodes one folder path per folder, not one path per entry).
//
//   scan [-p PRUNE]... [-k K/N] [-o DEV] [summaries] (-d FOLDER | -s FOLDER)...
//
// -d: the folder and everything below it. -s: the folder's entries (not the folder itself) and everything
// below them, shared out between N processes given the same start points and -k 0/N ... -k N-1/N: process K
// takes the entries whose paths hash to K (FNV-1a, mixed, modulo N: an entry added or removed during the scan
// moves no other one to another process, so nothing is measured twice or missed), SHARE_LEVELS levels deep:
// every process reads the folders of the levels above the last (taking its share of their entries), and
// takes whole what lies below its share of the last level. The folder's errors are process 0's to report, a
// shared folder's below it its owner's. Without -k, one process takes all (0/1).
//
// Records, each ended by a NUL byte (the mtime is whole seconds: the reader reads no more of it):
//   S                                 a start point begins (one per -d or -s, in order, even one left out)
//   DPATH                             the entries that follow are in the folder PATH (as the start point is
//                                     given, and below it); a folder with no entry to print has none
//   DEV BLOCKS SIZE MTIME TYPE NAME   an entry with one link, or a folder
//   HDEV INO NLINK BLOCKS SIZE MTIME TYPE NAME   a file with hard links
// An entry before the start point's first D record, with an empty NAME, is the start point itself. A folder's
// entries come before anything below it: its subfolders are walked after it has been read whole.
//
// Summaries (-t given): the reader needs an entry's name only where its rules may tell entries apart by name,
// and the reporter tells which entries those are. Every other entry is only added up, per folder, and the
// folder's sums close it, after everything below it:
//   -t T0,T1,...   mtime bounds (seconds, descending): the sums split files and folders by the first bound
//                  their mtime is above (bin 0), or none (the last bin)
//   -e D,K,P/S/C   an entry whose name starts with P, ends with S and holds C (each may be empty), of kind K
//                  (f: not a folder, d: a folder, a: any), in a folder D segments below its root (-1: any),
//                  is printed on its own; a file with hard links always is
//   -n N           so is a file that may be among the N largest of its root (a rank the sums cannot keep)
//   -m M, -g NAME  a folder deeper than M segments, not named NAME, with nothing printed on its own, is added
//                  up into its parent's sums and has no record (the reader treats it as its parent)
//   -l L           the folders given after it are L segments below their root (default 1)
//   -r K           the start points given after it are of root K: -e, -g and -m given after it are this root's
//                  alone (the ones before it are dropped), and its largest files are ranked apart
//   -u J           (after -r K) root K's -e, -g and -m are those given to root J earlier: the roots of one kind
//                  share their rules, given once (50 module folders were 3,000 arguments a process)
//   CDEV FILES FBLOCKS FSIZE DIRS DBLOCKS DSIZE OLDEST NEWEST LATEST [BIN BFILES BFBLOCKS BDBLOCKS]...
//                  the sums that close the folder of the latest D record not yet closed: the files, their
//                  blocks and sizes, the same of the folders, the oldest and newest file mtime, the newest of
//                  any, and per bin that is not empty the files, their blocks and the folders' blocks; a
//                  lone C where nothing was summed
// A folder's D record comes with its first entry printed, or with its sums: every D record is closed by one
// C record, so D and C nest as the folders do.
// Files deleted but held open (-o DEV given): after the walk, the files on device DEV that some process still holds
// open though no folder holds them any more (their blocks stay used until the last descriptor closes: no walk
// sees them), read from /proc/PID/fd of every process it may read, each inode once; one record ends the output:
//   OFILES BYTES                      (BYTES: their blocks, 512 bytes each; each number ended by a space)
// It never follows symbolic links, never goes into another filesystem (an entry on another device is left out
// whole, as du -x does), and leaves out a path given with -p and everything inside it. Errors go to stderr as
// find words them ("scan: 'PATH': Permission denied"); an entry that vanished is skipped in silence.
// Exit status: 0, or 1 when an entry could not be read (as find); 2 on bad usage; 3 when the tree is deeper than
// the descriptors it may hold or MAX_DEPTH (the reporter measures again with find).
//
// It calls the kernel through syscall() for stat and open so that it needs no symbol newer than glibc 2.2.5:
// it runs on any x86_64 glibc system. Elsewhere it cannot run, and the reporter uses find.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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
 * glibc's words for the errors a walk can meet, where musl's differ (lib/reporter/scan/errors.ts reads the code
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
static size_t *pruneLens;
static int pruneCount;

/**
 * Whether the path of length n is one given with -p. Lengths first: the whole home's walk leaves out every root
 * inside it, and most entries differ from each only after the home's own path.
 */
static int pruned(const char *path, size_t n) {
  for (int k = 0; k < pruneCount; k++)
    if (pruneLens[k] == n && memcmp(prunes[k], path, n) == 0) return 1;
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

/**
 * The levels below a -s folder whose entries are shared out: one level put all of a folder with one child (a
 * root's `data/`, `.npm/_cacache/`) in one process, and the roots' folders of the same name in the same one.
 * Every process reads the folders above the last shared level: a third level would read the leaf folders of
 * many homes twice (12 % more CPU on the 2-million-entry home of `npm run bench -- reporter --shapes`).
 */
#define SHARE_LEVELS 2

/** Whether the entry at `path` (len bytes) of a shared folder is this process's (a hash of its bytes, modulo N). */
static int mine(const char *path, size_t len) {
  uint32_t h = 2166136261u;
  for (const unsigned char *c = (const unsigned char *)path, *end = c + len; c < end; c++) h = (h ^ *c) * 16777619u;
  // mixed (MurmurHash3's finalizer) so that paths alike but for their last characters spread evenly
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

/** Whether the folder entry is "." or "..". */
static int dots(const char *name) {
  return name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0));
}

/** Summaries: on when -t is given. */
static int summary;
#define MAX_BINS 32
static int64_t bounds[MAX_BINS - 1];
static int nBounds;
/** Folders deeper than this (segments below their root) may be added into their parent (-m). */
static long foldBelow = LONG_MAX;
/** Every -g name in order; the current root's are specialCount of them from `specials`. */
static const char **allSpecials, **specials;
static int specialCount;
/** The depth below its root of the folder given as a start point (-l). */
static long pointDepth = 1;

/** A name test (-e): depth of the folder (-1 any), kind, and the parts the name must have. */
struct nameTest {
  long depth;
  char kind;
  const char *pre, *suf, *has;
  size_t preLen, sufLen;
};
/** Every -e test in order; the current root's are testCount of them from `tests`. */
static struct nameTest *allTests, *tests;
static int testCount;

static int passes(const struct nameTest *t, const char *name, size_t n, int isDir, long fdepth) {
  if (t->depth >= 0 && t->depth != fdepth) return 0;
  if (t->kind != 'a' && (t->kind == 'd') != isDir) return 0;
  if (t->preLen + t->sufLen > n) return 0;
  if (t->preLen && memcmp(name, t->pre, t->preLen) != 0) return 0;
  if (t->sufLen && memcmp(name + n - t->sufLen, t->suf, t->sufLen) != 0) return 0;
  return !*t->has || strstr(name, t->has);
}

/**
 * The root's tests by the byte a name must end with (tests with a suffix), else by the byte it must start with
 * (tests with a prefix), else all together: an entry is checked against the few that can match it.
 */
static int *bySuffix, *byPrefix, *byNothing;
static int suffixAt[257], prefixAt[257], nothingCount;
static int indexed = -1;

static void indexTests(void) {
  memset(suffixAt, 0, sizeof suffixAt);
  memset(prefixAt, 0, sizeof prefixAt);
  nothingCount = 0;
  for (int k = 0; k < testCount; k++) {
    const struct nameTest *t = &tests[k];
    if (t->sufLen) suffixAt[(unsigned char)t->suf[t->sufLen - 1] + 1]++;
    else if (t->preLen) prefixAt[(unsigned char)t->pre[0] + 1]++;
  }
  for (int b = 0; b < 256; b++) {
    suffixAt[b + 1] += suffixAt[b];
    prefixAt[b + 1] += prefixAt[b];
  }
  int sufNext[256], preNext[256];
  memcpy(sufNext, suffixAt, sizeof sufNext);
  memcpy(preNext, prefixAt, sizeof preNext);
  for (int k = 0; k < testCount; k++) {
    const struct nameTest *t = &tests[k];
    if (t->sufLen) bySuffix[sufNext[(unsigned char)t->suf[t->sufLen - 1]]++] = k;
    else if (t->preLen) byPrefix[preNext[(unsigned char)t->pre[0]]++] = k;
    else byNothing[nothingCount++] = k;
  }
  indexed = testCount;
}

/** Whether the entry `name` of a folder at `fdepth` is one the reader needs by name. */
static int named(const char *name, size_t n, int isDir, long fdepth) {
  if (indexed != testCount) indexTests();
  unsigned char last = (unsigned char)name[n - 1], first = (unsigned char)name[0];
  for (int i = suffixAt[last]; i < suffixAt[last + 1]; i++)
    if (passes(&tests[bySuffix[i]], name, n, isDir, fdepth)) return 1;
  for (int i = prefixAt[first]; i < prefixAt[first + 1]; i++)
    if (passes(&tests[byPrefix[i]], name, n, isDir, fdepth)) return 1;
  for (int i = 0; i < nothingCount; i++)
    if (passes(&tests[byNothing[i]], name, n, isDir, fdepth)) return 1;
  return 0;
}

static int special(const char *name) {
  for (int k = 0; k < specialCount; k++)
    if (strcmp(specials[k], name) == 0) return 1;
  return 0;
}

/**
 * The root's largest files so far (-n), by blocks and then path, as the reader ranks them (its order of
 * paths is byte order where both are ASCII: a tie with another path is printed). Only files printed for no other
 * reason are kept: the reader ranks each of them as a file, so none of them can leave the rank to another.
 */
static int topN;
static uint64_t *topBlocks;
static char **topPaths;
static int topCount;
/** The smallest kept (the last by rank): where a file must rank above to be printed. */
static int floorAt;

static int ascii(const char *s) {
  for (; *s; s++)
    if ((unsigned char)*s >= 0x80) return 0;
  return 1;
}

/** Whether the file path (blocks) may be among the largest: then it is printed, and kept. */
static int mayRank(uint64_t blocks, const char *p) {
  if (topN == 0 || blocks == 0) return 0;
  if (topCount == topN) {
    uint64_t b = topBlocks[floorAt];
    if (blocks < b) return 0;
    if (blocks == b && ascii(p) && ascii(topPaths[floorAt]) && strcmp(p, topPaths[floorAt]) > 0) return 0;
  }
  char *copy = strdup(p);
  if (!copy) _exit(4);
  int at;
  if (topCount < topN) at = topCount++;
  else {
    at = floorAt;
    free(topPaths[at]);
  }
  topBlocks[at] = blocks;
  topPaths[at] = copy;
  floorAt = 0;
  for (int k = 1; k < topCount; k++)
    if (topBlocks[k] < topBlocks[floorAt] ||
        (topBlocks[k] == topBlocks[floorAt] && strcmp(topPaths[k], topPaths[floorAt]) > 0))
      floorAt = k;
  return 1;
}

static void topReset(void) {
  for (int k = 0; k < topCount; k++) free(topPaths[k]);
  topCount = 0;
  floorAt = 0;
}

/** A folder's sums: its entries printed on no account of their own, and those of the folders added into it. */
struct sums {
  uint64_t files, fileBlocks, fileSize, dirs, dirBlocks, dirSize;
  int64_t oldest, newest, latest;
  uint64_t binFiles[MAX_BINS], binFileBlocks[MAX_BINS], binDirBlocks[MAX_BINS];
};
/** One per level of the walk. */
static struct sums *levels;
static int levelCap;

static struct sums *sumsAt(int level) {
  if (level >= levelCap) {
    levelCap = level + 64;
    levels = realloc(levels, (size_t)levelCap * sizeof *levels);
    if (!levels) _exit(4);
  }
  return &levels[level];
}

static void clearSums(struct sums *s) {
  memset(s, 0, sizeof *s);
  s->oldest = INT64_MAX;
  s->newest = INT64_MIN;
  s->latest = INT64_MIN;
}

static void addEntry(struct sums *s, const struct stat *st, int isDir) {
  int64_t m = (int64_t)st->st_mtim.tv_sec;
  int bin = 0;
  while (bin < nBounds && m <= bounds[bin]) bin++;
  uint64_t blocks = (uint64_t)st->st_blocks;
  if (isDir) {
    s->dirs++;
    s->dirBlocks += blocks;
    s->dirSize += (uint64_t)st->st_size;
    s->binDirBlocks[bin] += blocks;
  } else {
    s->files++;
    s->fileBlocks += blocks;
    s->fileSize += (uint64_t)st->st_size;
    s->binFiles[bin]++;
    s->binFileBlocks[bin] += blocks;
    if (m < s->oldest) s->oldest = m;
    if (m > s->newest) s->newest = m;
  }
  if (m > s->latest) s->latest = m;
}

static void addInto(struct sums *to, const struct sums *s) {
  to->files += s->files;
  to->fileBlocks += s->fileBlocks;
  to->fileSize += s->fileSize;
  to->dirs += s->dirs;
  to->dirBlocks += s->dirBlocks;
  to->dirSize += s->dirSize;
  if (s->oldest < to->oldest) to->oldest = s->oldest;
  if (s->newest > to->newest) to->newest = s->newest;
  if (s->latest > to->latest) to->latest = s->latest;
  for (int b = 0; b <= nBounds; b++) {
    to->binFiles[b] += s->binFiles[b];
    to->binFileBlocks[b] += s->binFileBlocks[b];
    to->binDirBlocks[b] += s->binDirBlocks[b];
  }
}

static void sumsRecord(dev_t dev, const struct sums *s) {
  char rec[64 + 24 * 4 * MAX_BINS + 24 * 10];
  char *p = rec;
  *p++ = 'C';
  p = unum(p, (uint64_t)dev);
  p = unum(p, s->files);
  p = unum(p, s->fileBlocks);
  p = unum(p, s->fileSize);
  p = unum(p, s->dirs);
  p = unum(p, s->dirBlocks);
  p = unum(p, s->dirSize);
  p = num(p, s->files ? s->oldest : 0);
  p = num(p, s->files ? s->newest : 0);
  p = num(p, s->files + s->dirs ? s->latest : 0);
  for (int b = 0; b <= nBounds; b++) {
    if (!s->binFiles[b] && !s->binDirBlocks[b] && !s->binFileBlocks[b]) continue;
    p = unum(p, (uint64_t)b);
    p = unum(p, s->binFiles[b]);
    p = unum(p, s->binFileBlocks[b]);
    p = unum(p, s->binDirBlocks[b]);
  }
  *p++ = 0;
  put(rec, (size_t)(p - rec));
}

/** The D record of the folder whose path is path[0..len). */
static void folderRecord(size_t len) {
  put("D", 1);
  put(path, len);
  put("", 1);
}

/**
 * Measures the entries of the folder open at `fd` (whose path is path[0..len)) and everything below them, or
 * (`share` levels left to share, from SHARE_LEVELS below a -s folder) this process's share of them, and closes
 * it; `quiet`: its errors are another process's to report. With summaries, a `foldable` folder with nothing
 * printed adds its sums into its parent's.
 */
static void walk(int fd, size_t len, dev_t dev, int share, int quiet, int foldable) {
  size_t base = namesLen;
  int headed = 0;
  long fdepth = pointDepth + depth;
  if (summary) clearSums(sumsAt(depth));
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
      if (dots(name)) continue;
      size_t nlen = strlen(name);
      reserve(len + nlen + 2);
      path[len] = '/';
      memcpy(path + len + 1, name, nlen + 1);
      if (pruneCount && pruned(path, len + 1 + nlen)) continue;
      if (share && !mine(path, len + 1 + nlen)) {
        // another process's share; a folder above the last shared level is read for this process's share of it
        if (share > 1 && (e->type == DT_DIR || e->type == DT_UNKNOWN)) keep(name, nlen);
        continue;
      }
      struct stat st;
      if (statAt(fd, name, &st) != 0) {
        if (errno != ENOENT) complain(path, errno);
        continue;
      }
      if (st.st_dev != dev) continue; // a mount point: left out, like du -x
      int isDir = S_ISDIR(st.st_mode);
      if (isDir) keep(name, nlen);
      if (summary && (isDir || st.st_nlink == 1) && !named(name, nlen, isDir, fdepth) &&
          (isDir || !mayRank((uint64_t)st.st_blocks, path))) {
        addEntry(&levels[depth], &st, isDir);
        continue;
      }
      if (!headed) {
        folderRecord(len);
        headed = 1;
      }
      record(&st, name, nlen);
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
    // a shared folder's own errors are its owner's to report (one not stat'ed may turn out not to be a folder)
    int owned = share <= 1 || mine(path, len + 1 + nlen);
    int child = openDir(fd, path + len + 1, owned ? path : NULL);
    if (child < 0) continue;
    int foldable = summary && fdepth + 1 > foldBelow && !special(path + len + 1);
    depth++;
    walk(child, len + 1 + nlen, dev, share > 1 ? share - 1 : 0, !owned, foldable);
    depth--;
  }
  namesLen = base;
  close(fd);
  if (!summary) return;
  struct sums *s = &levels[depth];
  if (!headed && s->files + s->dirs == 0) return;
  if (!headed && foldable) {
    addInto(&levels[depth - 1], s);
    return;
  }
  if (!headed) folderRecord(len);
  if (s->files + s->dirs == 0) put("C", 2); // nothing summed: the folder is only closed
  else sumsRecord(dev, s);
}

/** Reads a whole decimal number (optionally negative) ending at `end`; 0 when it is not one. */
static int decimal(const char *s, char end, long *v, const char **rest) {
  int neg = *s == '-';
  if (neg) s++;
  if (*s < '0' || *s > '9') return 0;
  long x = 0;
  while (*s >= '0' && *s <= '9') {
    if (x > (LONG_MAX - 9) / 10) return 0;
    x = x * 10 + (*s++ - '0');
  }
  if (*s != end) return 0;
  *v = neg ? -x : x;
  if (rest) *rest = s + 1;
  return 1;
}

/** -t: bounds, comma-separated, descending. */
static int readBounds(const char *s) {
  summary = 1;
  nBounds = 0;
  while (*s) {
    long v;
    const char *comma = strchr(s, ',');
    if (nBounds == MAX_BINS - 1 || !decimal(s, comma ? ',' : 0, &v, NULL)) return 0;
    if (nBounds && v >= bounds[nBounds - 1]) return 0;
    bounds[nBounds++] = v;
    if (!comma) break;
    s = comma + 1;
  }
  return 1;
}

/** -e D,K,P/S/C (P, S and C hold no '/': a name cannot). */
static int readTest(char *s, struct nameTest *t) {
  const char *rest;
  if (!decimal(s, ',', &t->depth, &rest) || t->depth < -1) return 0;
  if (!strchr("fda", rest[0]) || !rest[0] || rest[1] != ',') return 0;
  t->kind = rest[0];
  char *pre = (char *)rest + 2;
  char *suf = strchr(pre, '/');
  char *has = suf ? strchr(suf + 1, '/') : NULL;
  if (!has || strchr(has + 1, '/')) return 0;
  *suf++ = 0;
  *has++ = 0;
  t->pre = pre;
  t->suf = suf;
  t->has = has;
  t->preLen = strlen(pre);
  t->sufLen = strlen(suf);
  return 1;
}

/**
 * The files on device `dev` deleted while a process holds them open (-o), from /proc: each descriptor whose link
 * says " (deleted)" is stat'ed through the link, and a regular file with no link left on that device counts once
 * per inode. Another user's processes cannot be read (their fd folders refuse): as the reporter runs as the
 * workspace's user, those are the user's own.
 */
static void deletedOpen(dev_t dev) {
  static char procs[1 << 15] __attribute__((aligned(8))), fds[1 << 15] __attribute__((aligned(8)));
  static const char deleted[] = " (deleted)";
  const size_t deletedLen = sizeof deleted - 1;
  uint64_t files = 0, bytes = 0, *seen = NULL;
  size_t seenCount = 0, seenCap = 0;
  int proc = (int)syscall(SYS_openat, AT_FDCWD, "/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  for (long n; proc >= 0 && (n = syscall(SYS_getdents64, proc, procs, sizeof procs)) > 0;) {
    for (long at = 0; at < n;) {
      const struct linuxDirent64 *p = (const struct linuxDirent64 *)(procs + at);
      at += p->reclen;
      if (p->name[0] < '1' || p->name[0] > '9') continue; // a process's folder, not /proc/self and the rest
      char fdPath[300];
      size_t plen = strlen(p->name);
      if (plen > sizeof fdPath - 4) continue;
      memcpy(fdPath, p->name, plen);
      memcpy(fdPath + plen, "/fd", 4);
      int fd = (int)syscall(SYS_openat, proc, fdPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (fd < 0) continue; // another user's, or gone
      for (long m; (m = syscall(SYS_getdents64, fd, fds, sizeof fds)) > 0;) {
        for (long k = 0; k < m;) {
          const struct linuxDirent64 *e = (const struct linuxDirent64 *)(fds + k);
          k += e->reclen;
          if (dots(e->name)) continue;
          char target[PATH_MAX];
          long tl = syscall(SYS_readlinkat, fd, e->name, target, sizeof target);
          if (tl < (long)deletedLen || memcmp(target + tl - deletedLen, deleted, deletedLen) != 0) continue;
          struct stat st;
          if (syscall(SYS_newfstatat, fd, e->name, &st, 0) != 0) continue; // closed meanwhile
          if (st.st_dev != dev || st.st_nlink != 0 || !S_ISREG(st.st_mode)) continue;
          size_t j = 0;
          while (j < seenCount && seen[j] != (uint64_t)st.st_ino) j++;
          if (j < seenCount) continue;
          if (seenCount == seenCap) {
            seenCap = seenCap ? seenCap * 2 : 64;
            seen = realloc(seen, seenCap * sizeof *seen);
            if (!seen) _exit(4);
          }
          seen[seenCount++] = (uint64_t)st.st_ino;
          files++;
          bytes += (uint64_t)st.st_blocks * 512;
        }
      }
      close(fd);
    }
  }
  if (proc >= 0) close(proc);
  free(seen);
  char rec[64], *q = rec;
  *q++ = 'O';
  q = unum(q, files);
  q = unum(q, bytes);
  *q++ = 0;
  put(rec, (size_t)(q - rec));
}

/** Each root's rules as -r, -e, -g and -m gave them, for -u: where its tests and names start, how many, its -m. */
struct rootRules {
  int given, tests, testCount, specials, specialCount;
  long foldBelow;
};
static struct rootRules *rootRules;
static long rootMax = -1;
static dev_t openDev;
static int openAsked;

int main(int argc, char **argv) {
  prunes = calloc((size_t)argc, sizeof *prunes);
  pruneLens = calloc((size_t)argc, sizeof *pruneLens);
  specials = allSpecials = calloc((size_t)argc, sizeof *allSpecials);
  tests = allTests = calloc((size_t)argc, sizeof *allTests);
  bySuffix = calloc((size_t)argc, sizeof *bySuffix);
  byPrefix = calloc((size_t)argc, sizeof *byPrefix);
  byNothing = calloc((size_t)argc, sizeof *byNothing);
  if (!prunes || !pruneLens || !allSpecials || !allTests || !bySuffix || !byPrefix || !byNothing) return 4;
  int tn = 0, gn = 0;
  for (int k = 1; k < argc; k += 2) {
    if (k + 1 >= argc || argv[k][0] != '-' || !argv[k][1] || !strchr("pdsktenmglruo", argv[k][1]) || argv[k][2])
      return 2;
    const char *v = argv[k + 1];
    long x;
    switch (argv[k][1]) {
      case 'p':
        pruneLens[pruneCount] = strlen(argv[k + 1]);
        prunes[pruneCount++] = argv[k + 1];
        break;
      case 'k': if (!share(v)) return 2; break;
      case 'o':
        if (!decimal(v, 0, &x, NULL) || x < 0) return 2;
        openDev = (dev_t)x, openAsked = 1;
        break;
      case 't': if (!readBounds(v)) return 2; break;
      case 'e': if (!readTest(argv[k + 1], &allTests[tn++])) return 2; break;
      case 'g': allSpecials[gn++] = v; break;
      case 'n':
        if (!decimal(v, 0, &x, NULL) || x < 0 || x > 1000) return 2;
        topN = (int)x;
        break;
      case 'm':
      case 'l':
      case 'u':
      case 'r':
        if (!decimal(v, 0, &x, NULL) || x < 0) return 2;
        if (argv[k][1] == 'r' && x > rootMax) rootMax = x;
        break;
    }
  }
  rootRules = calloc((size_t)rootMax + 2, sizeof *rootRules);
  if (!rootRules) return 4;
  long root = -1;
  topBlocks = calloc((size_t)topN + 1, sizeof *topBlocks);
  topPaths = calloc((size_t)topN + 1, sizeof *topPaths);
  if (!topBlocks || !topPaths) return 4;
  tn = gn = 0;
  for (int k = 1; k < argc; k += 2) {
    char opt = argv[k][1];
    switch (opt) {
      case 'l': decimal(argv[k + 1], 0, &pointDepth, NULL); break;
      case 'm': decimal(argv[k + 1], 0, &foldBelow, NULL); break;
      case 'e': tn++, testCount++; break;
      case 'g': gn++, specialCount++; break;
      case 'r':
        topReset();
        tests = allTests + tn;
        specials = allSpecials + gn;
        testCount = specialCount = 0;
        indexed = -1;
        foldBelow = LONG_MAX;
        decimal(argv[k + 1], 0, &root, NULL);
        break;
      case 'u': {
        long from;
        decimal(argv[k + 1], 0, &from, NULL);
        if (root < 0 || from > rootMax || !rootRules[from].given) return 2;
        const struct rootRules *r = &rootRules[from];
        tests = allTests + r->tests;
        testCount = r->testCount;
        specials = allSpecials + r->specials;
        specialCount = r->specialCount;
        foldBelow = r->foldBelow;
        indexed = -1;
        break;
      }
    }
    if (root >= 0 && strchr("rmegu", opt))
      rootRules[root] = (struct rootRules){1, (int)(tests - allTests), testCount, (int)(specials - allSpecials),
                                           specialCount, foldBelow};
    if (opt != 'd' && opt != 's') continue;
    int share = opt == 's' ? SHARE_LEVELS : 0, quiet = share && shareK != 0;
    const char *point = argv[k + 1];
    size_t len = strlen(point);
    reserve(len + 1);
    memcpy(path, point, len + 1);
    put("S", 2);
    if (pruneCount && pruned(path, len)) continue;
    struct stat st;
    if (statAt(AT_FDCWD, path, &st) != 0) {
      if (errno != ENOENT && !quiet) complain(path, errno);
      continue;
    }
    if (!share) record(&st, "", 0);
    if (!S_ISDIR(st.st_mode)) continue;
    int fd = openDir(AT_FDCWD, path, quiet ? NULL : path);
    if (fd >= 0) walk(fd, len, st.st_dev, share, quiet, 0);
  }
  if (openAsked) deletedOpen(openDev);
  flush();
  return status;
}
