// SPDX-License-Identifier: GPL-2.0
/*
 * The file inventory of a kernel tree, and the threaded scan over it.
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chopblock.h"

struct walk {
	VEC(struct file) files;
};

static int classify(const char *path, const char *base)
{
	size_t bl = strlen(base);
	const char *dot = strrchr(base, '.');

	if (!strncmp(path, "tools/", 6) || !strncmp(path, "Documentation/", 14))
		return FK_OTHER;
	if (!strncmp(base, "Kconfig", 7))
		return FK_KCONFIG;
	if (!strcmp(base, "Makefile") || !strcmp(base, "Kbuild"))
		return FK_MAKE;
	if (strstr(path, "/configs/") &&
	    ((bl > 9 && !strcmp(base + bl - 9, "defconfig")) ||
	     (dot && !strcmp(dot, ".config"))))
		return FK_DEFCONFIG;
	if (!dot)
		return FK_OTHER;
	if (!strcmp(dot, ".c"))
		return FK_C;
	if (!strcmp(dot, ".h"))
		return FK_H;
	if (!strcmp(dot, ".S"))
		return FK_S;
	if (!strcmp(dot, ".rs"))
		return FK_RS;
	if (!strcmp(dot, ".dts") || !strcmp(dot, ".dtsi"))
		return FK_DTS;
	return FK_OTHER;
}

static void walk_dir(struct walk *w, int dfd, char *prefix, size_t plen)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;

	if (!d) {
		close(dfd);
		return;
	}
	while ((de = readdir(d))) {
		size_t nl = strlen(de->d_name);
		int type = de->d_type;

		if (de->d_name[0] == '.' &&
		    (!de->d_name[1] || de->d_name[1] == '.' ||
		     !strcmp(de->d_name, ".git")))
			continue;
		if (plen + nl + 2 >= 4096)
			continue;
		memcpy(prefix + plen, de->d_name, nl + 1);
		if (type == DT_UNKNOWN || type == DT_LNK) {
			struct stat st;

			if (fstatat(dirfd(d), de->d_name, &st, 0))
				continue;
			type = S_ISDIR(st.st_mode) ? DT_DIR :
			       S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
		}
		if (type == DT_DIR) {
			int fd = openat(dirfd(d), de->d_name,
					O_RDONLY | O_DIRECTORY | O_CLOEXEC);

			if (fd < 0)
				continue;
			prefix[plen + nl] = '/';
			prefix[plen + nl + 1] = 0;
			walk_dir(w, fd, prefix, plen + nl + 1);
		} else if (type == DT_REG) {
			struct file f = { 0 };

			f.path = xstrndup(prefix, plen + nl);
			f.plen = plen + nl;
			f.base = plen;
			f.kind = classify(f.path, f.path + f.base);
			vpush(w->files, f);
		}
	}
	closedir(d);
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(((const struct file *)a)->path,
		      ((const struct file *)b)->path);
}

static const struct file *sort_files;

static int cmp_base(const void *a, const void *b)
{
	const struct file *fa = &sort_files[*(const int *)a];
	const struct file *fb = &sort_files[*(const int *)b];
	int r = strcmp(fa->path + fa->base, fb->path + fb->base);

	return r ? r : *(const int *)a - *(const int *)b;
}

void tree_load(struct tree *t, const char *root)
{
	struct walk w = { 0 };
	char prefix[4096];
	struct stat st;
	int fd, i;
	char *ad;

	memset(t, 0, sizeof(*t));
	if (stat(root, &st) || !S_ISDIR(st.st_mode))
		die("tree '%s' is not a directory", root);
	t->root = xstrdup(root);
	ad = xmalloc(strlen(root) + 16);
	sprintf(ad, "%s/Kconfig", root);
	if (access(ad, R_OK))
		die("tree '%s' has no top-level Kconfig: not a kernel tree", root);
	free(ad);
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		die("cannot open tree '%s'", root);
	prefix[0] = 0;
	walk_dir(&w, fd, prefix, 0);
	qsort(w.files.v, w.files.n, sizeof(struct file), cmp_path);
	t->files = w.files.v;
	t->nfiles = w.files.n;
	for (i = 0; i < t->nfiles; i++)
		smap_put(&t->pathmap, t->files[i].path, t->files[i].plen, i);
	t->byname = xmalloc(sizeof(int) * (t->nfiles + 1));
	for (i = 0; i < t->nfiles; i++)
		t->byname[i] = i;
	sort_files = t->files;
	qsort(t->byname, t->nfiles, sizeof(int), cmp_base);
	for (i = 0; i < t->nfiles; i++) {
		const struct file *f = &t->files[t->byname[i]];

		smap_put(&t->basemap, f->path + f->base, strlen(f->path + f->base), i);
	}
	/* architectures: arch/X/Kconfig */
	for (i = 0; i < t->nfiles; i++) {
		const char *p = t->files[i].path;
		const char *s;

		if (strncmp(p, "arch/", 5))
			continue;
		s = strchr(p + 5, '/');
		if (s && !strcmp(s, "/Kconfig"))
			vpush(t->arches, xstrndup(p + 5, s - (p + 5)));
	}
	if (t->arches.n > MAX_ARCH)
		die("too many architectures in '%s'", root);
}

int tree_find(const struct tree *t, const char *path)
{
	return smap_get(&t->pathmap, path, strlen(path));
}

/* Is there any file below @dir (which ends with '/')? */
int tree_has_dir(const struct tree *t, const char *dir)
{
	int lo = 0, hi = t->nfiles;
	size_t n = strlen(dir);

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (strcmp(t->files[mid].path, dir) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->nfiles && !strncmp(t->files[lo].path, dir, n);
}

struct scanjob {
	struct tree *t;
	int kconfig_only;
	int light;
	int next;
	pthread_mutex_t lock;
};

static void *scan_worker(void *arg)
{
	struct scanjob *j = arg;

	for (;;) {
		int i, end;

		pthread_mutex_lock(&j->lock);
		i = j->next;
		j->next += 64;
		pthread_mutex_unlock(&j->lock);
		if (i >= j->t->nfiles)
			break;
		end = i + 64 < j->t->nfiles ? i + 64 : j->t->nfiles;
		for (; i < end; i++)
			if (j->t->files[i].kind != FK_OTHER &&
			    (j->t->files[i].kind == FK_KCONFIG) == j->kconfig_only)
				scan_file(j->t, &j->t->files[i], j->light);
	}
	scan_thread_done();
	return NULL;
}

void tree_scan(struct tree *t, int kconfig_only, int light)
{
	struct scanjob j = { .t = t, .next = 0, .kconfig_only = kconfig_only,
			     .light = light };

	pthread_mutex_init(&j.lock, NULL);
	run_workers(scan_worker, &j);
	pthread_mutex_destroy(&j.lock);
}

/* A coarse subsystem name: the first two components of most paths. */
char *subsystem_of(const char *path)
{
	const char *s = strchr(path, '/');

	if (!s)
		return xstrdup("(top)");
	if (!strncmp(path, "drivers/", 8) || !strncmp(path, "arch/", 5) ||
	    !strncmp(path, "sound/", 6) || !strncmp(path, "fs/", 3) ||
	    !strncmp(path, "net/", 4) || !strncmp(path, "include/", 8)) {
		const char *s2 = strchr(s + 1, '/');

		if (s2)
			return xstrndup(path, s2 - path);
	}
	return xstrndup(path, s - path);
}
