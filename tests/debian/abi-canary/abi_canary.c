// SPDX-License-Identifier: GPL-2.0
/*
 * An out-of-tree module built against Debian's unchanged headers, the way
 * DKMS builds one, that uses the interfaces the series changes the way real
 * modules do, and guards every object it owns with canaries:
 *
 * - a struct shrink_control on its own stack, passed to a mounted
 *   superblock's s_shrink.scan_objects (what OpenZFS's zfs_prune() does);
 * - struct shrinkers embedded in kmalloc'ed structs, registered, called by
 *   reclaim and unregistered when the module goes: a NUMA-aware one in
 *   memory left as kmalloc returns it, a memcg-aware one zeroed (stock 6.1
 *   sets no nr_deferred for a memcg-aware shrinker and kfree()s it at
 *   unregistration, so such a module must zero it; the series may not ask
 *   more of modules than that) whose objects sit on a memcg-aware list_lru,
 *   charged to the memcg of whoever wrote to the "fill" parameter, so that
 *   only reclaim of that memcg (shrink_slab_memcg()) finds them; and a zeroed
 *   one never registered but unregistered (a module's error path after a
 *   failed register_shrinker());
 * - iget5_locked()/ilookup5() and iget_locked()/ilookup() on a filesystem
 *   of its own whose inodes sit between canaries.
 *
 * Anything wrong is reported with "abi_canary: FAIL" and a WARN, and makes
 * the load or the write to a parameter fail.  Writing a path to
 * /sys/module/abi_canary/parameters/prune scans that path's superblock;
 * "calls" reads the shrinker callback counts and the memcg-aware shrinker's
 * objects; writing N to "fill" adds N objects.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/delay.h>
#include <linux/list_lru.h>
#include <linux/namei.h>
#include <linux/mount.h>
#include <linux/pseudo_fs.h>
#include <linux/shrinker.h>
#include <linux/slab.h>

#define CANARY 0x5ca1ab1e0ddba11ULL
#define NR_CANARY 4

static int failures;

#define check(cond, fmt, ...) ({					\
	bool __ok = (cond);						\
	if (!__ok) {							\
		failures++;						\
		pr_err("abi_canary: FAIL " fmt "\n", ##__VA_ARGS__);	\
		WARN_ON(1);						\
	}								\
	__ok;								\
})

static void canary_set(u64 *c)
{
	int i;

	for (i = 0; i < NR_CANARY; i++)
		c[i] = CANARY + i;
}

static bool canary_ok(const u64 *c, const char *what)
{
	int i;

	for (i = 0; i < NR_CANARY; i++)
		if (!check(c[i] == CANARY + i, "%s canary %d is %#llx", what, i, c[i]))
			return false;
	return true;
}

/* --- shrinkers in kmalloc'ed structs -------------------------------- */

struct canary_shrinker {
	u64 head[NR_CANARY];
	struct shrinker shrinker;
	u64 tail[NR_CANARY];
	atomic_long_t objects;
	atomic_long_t count_calls, scan_calls;
	atomic_t running;
	const char *name;
	/* the memcg-aware one keeps its objects on a memcg-aware list_lru */
	struct list_lru lru;
	bool has_lru, lru_ready;
};

/* An object of the memcg-aware shrinker, charged to its allocator's memcg */
struct canary_obj {
	struct list_head lru;
	u64 canary[NR_CANARY];
};

static struct canary_shrinker *numa_sh, *memcg_sh;
static struct kmem_cache *canary_obj_cache;

/* A scan that sleeps keeps a callback running while the module goes. */
static unsigned int scan_delay_ms;
module_param(scan_delay_ms, uint, 0644);
MODULE_PARM_DESC(scan_delay_ms, "sleep this long in every scan");

static struct canary_shrinker *to_cs(struct shrinker *s)
{
	return container_of(s, struct canary_shrinker, shrinker);
}

static bool sc_sane(struct canary_shrinker *cs, struct shrink_control *sc)
{
	return check(sc->nid >= 0 && sc->nid < nr_node_ids, "%s: nid %d", cs->name, sc->nid) &&
	       canary_ok(cs->head, cs->name) && canary_ok(cs->tail, cs->name);
}

static enum lru_status canary_isolate(struct list_head *item, struct list_lru_one *list,
				      spinlock_t *lock, void *dispose)
{
	list_lru_isolate_move(list, item, dispose);
	return LRU_REMOVED;
}

static void canary_objs_free(struct canary_shrinker *cs, struct list_head *dispose)
{
	struct canary_obj *obj, *next;

	list_for_each_entry_safe(obj, next, dispose, lru) {
		canary_ok(obj->canary, "list_lru object");
		kmem_cache_free(canary_obj_cache, obj);
		atomic_long_dec(&cs->objects);
	}
}

static unsigned long canary_count(struct shrinker *s, struct shrink_control *sc)
{
	struct canary_shrinker *cs = to_cs(s);
	unsigned long n = 0;

	atomic_inc(&cs->running);
	atomic_long_inc(&cs->count_calls);
	if (!sc_sane(cs, sc))
		n = 0;
	else if (!cs->has_lru)
		n = atomic_long_read(&cs->objects);
	else if (smp_load_acquire(&cs->lru_ready))	/* pairs with canary_shrinker_new() */
		n = list_lru_shrink_count(&cs->lru, sc) ?: SHRINK_EMPTY;
	atomic_dec(&cs->running);
	return n;
}

static unsigned long canary_scan(struct shrinker *s, struct shrink_control *sc)
{
	struct canary_shrinker *cs = to_cs(s);
	unsigned long n = 0;
	LIST_HEAD(dispose);

	atomic_inc(&cs->running);
	atomic_long_inc(&cs->scan_calls);
	if (READ_ONCE(scan_delay_ms))
		msleep(READ_ONCE(scan_delay_ms));
	if (!sc_sane(cs, sc)) {
		n = SHRINK_STOP;
	} else if (cs->has_lru) {
		/* sc->memcg's own list: a memcg's objects go only when it is scanned */
		if (smp_load_acquire(&cs->lru_ready))	/* pairs with canary_shrinker_new() */
			n = list_lru_shrink_walk(&cs->lru, sc, canary_isolate, &dispose);
		canary_objs_free(cs, &dispose);
	} else {
		n = min_t(unsigned long, sc->nr_to_scan, atomic_long_read(&cs->objects));
		/* Refill, so that every drop_caches pass finds work again. */
		if (atomic_long_sub_return(n, &cs->objects) <= 0)
			atomic_long_set(&cs->objects, 1024);
	}
	atomic_dec(&cs->running);
	return n;
}

static struct canary_shrinker *canary_shrinker_new(const char *name, unsigned int flags,
						   bool zeroed)
{
	struct canary_shrinker *cs = kmalloc(sizeof(*cs), GFP_KERNEL);
	int err;

	if (!cs)
		return ERR_PTR(-ENOMEM);
	/* Not zeroed, the core must initialize every member it uses. */
	memset(cs, zeroed ? 0 : 0x6b, sizeof(*cs));
	canary_set(cs->head);
	canary_set(cs->tail);
	cs->has_lru = flags & SHRINKER_MEMCG_AWARE;
	atomic_long_set(&cs->objects, cs->has_lru ? 0 : 1024);
	atomic_long_set(&cs->count_calls, 0);
	atomic_long_set(&cs->scan_calls, 0);
	atomic_set(&cs->running, 0);
	cs->lru_ready = false;
	cs->name = name;
	cs->shrinker.count_objects = canary_count;
	cs->shrinker.scan_objects = canary_scan;
	cs->shrinker.seeks = DEFAULT_SEEKS;
	cs->shrinker.batch = 0;
	cs->shrinker.flags = flags;
	err = register_shrinker(&cs->shrinker, "abi-canary-%s", name);
	if (err) {
		kfree(cs);
		return ERR_PTR(err);
	}
	/*
	 * The list_lru needs the id register_shrinker() gave the shrinker;
	 * prealloc_shrinker(), which would give it first, is not exported.
	 * Until it is set, the callbacks see an empty cache.
	 */
	if (cs->has_lru) {
		err = list_lru_init_memcg(&cs->lru, &cs->shrinker);
		/* the callbacks see the list_lru initialized once they see lru_ready */
		smp_store_release(&cs->lru_ready, !err);
	}
	if (err || !canary_ok(cs->head, name) || !canary_ok(cs->tail, name)) {
		unregister_shrinker(&cs->shrinker);
		kfree(cs);
		return ERR_PTR(err ?: -EIO);
	}
	return cs;
}

static void canary_shrinker_free(struct canary_shrinker *cs)
{
	long calls, left;
	LIST_HEAD(dispose);

	unregister_shrinker(&cs->shrinker);
	/* A callback may neither run nor start once unregister_shrinker() has returned. */
	check(!atomic_read(&cs->running), "%s still running after unregister_shrinker()",
	      cs->name);
	calls = atomic_long_read(&cs->count_calls);
	canary_ok(cs->head, cs->name);
	canary_ok(cs->tail, cs->name);
	synchronize_rcu();
	check(atomic_long_read(&cs->count_calls) == calls,
	      "%s called after unregister_shrinker() returned", cs->name);
	pr_info("abi_canary: %s unregistered after %ld count and %ld scan calls\n",
		cs->name, calls, atomic_long_read(&cs->scan_calls));
	if (cs->has_lru) {
		/* also those a removed memcg's offlining moved to its parent */
		left = list_lru_walk(&cs->lru, canary_isolate, &dispose, ULONG_MAX);
		canary_objs_free(cs, &dispose);
		pr_info("abi_canary: %s freed %ld objects left on its list_lru\n", cs->name, left);
		check(!atomic_long_read(&cs->objects), "%s: %ld objects not on its list_lru",
		      cs->name, atomic_long_read(&cs->objects));
		list_lru_destroy(&cs->lru);
	}
	kfree(cs);
}

/* Objects charged to the writer's memcg: only its memcg's reclaim frees them. */
static int fill_set(const char *val, const struct kernel_param *kp)
{
	unsigned int i, n;
	int err = kstrtouint(val, 0, &n);

	if (err)
		return err;
	for (i = 0; i < n; i++) {
		struct canary_obj *obj = kmem_cache_alloc_lru(canary_obj_cache, &memcg_sh->lru,
							      GFP_KERNEL);

		if (!obj)
			return -ENOMEM;
		canary_set(obj->canary);
		INIT_LIST_HEAD(&obj->lru);
		atomic_long_inc(&memcg_sh->objects);
		list_lru_add(&memcg_sh->lru, &obj->lru);
	}
	return 0;
}

static const struct kernel_param_ops fill_ops = { .set = fill_set };
module_param_cb(fill, &fill_ops, NULL, 0200);
MODULE_PARM_DESC(fill, "N: add N objects, charged to the writer's memcg, to the memcg-aware shrinker");

/* A module's error path: a shrinker whose registration never happened. */
static int never_registered(void)
{
	struct canary_shrinker *cs = kzalloc(sizeof(*cs), GFP_KERNEL);

	if (!cs)
		return -ENOMEM;
	canary_set(cs->head);
	canary_set(cs->tail);
	unregister_shrinker(&cs->shrinker);
	canary_ok(cs->head, "never-registered");
	canary_ok(cs->tail, "never-registered");
	kfree(cs);
	return 0;
}

static int calls_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "numa %ld %ld memcg %ld %ld objects %ld\n",
			  atomic_long_read(&numa_sh->count_calls),
			  atomic_long_read(&numa_sh->scan_calls),
			  atomic_long_read(&memcg_sh->count_calls),
			  atomic_long_read(&memcg_sh->scan_calls),
			  atomic_long_read(&memcg_sh->objects));
}

static const struct kernel_param_ops calls_ops = { .get = calls_get };
module_param_cb(calls, &calls_ops, NULL, 0444);
MODULE_PARM_DESC(calls, "count and scan calls of the two shrinkers, objects of the memcg-aware one");

/* --- zfs_prune(): a shrink_control of our own to a superblock ------- */

struct stack_sc {
	u64 head[NR_CANARY];
	struct shrink_control sc;
	u64 tail[NR_CANARY];
};

static int prune_set(const char *val, const struct kernel_param *kp)
{
	struct stack_sc s;
	struct shrinker *shrinker;

	/* tail must follow the 32 bytes of Debian's shrink_control at once */
	BUILD_BUG_ON(sizeof(struct shrink_control) != 32);
	BUILD_BUG_ON(offsetof(struct stack_sc, tail) != offsetof(struct stack_sc, sc) + 32);
	struct path path;
	unsigned long count, freed;
	char *name = kstrdup(val, GFP_KERNEL);
	int err, before = failures;

	if (!name)
		return -ENOMEM;
	err = kern_path(strim(name), LOOKUP_FOLLOW, &path);
	kfree(name);
	if (err)
		return err;

	canary_set(s.head);
	canary_set(s.tail);
	memset(&s.sc, 0, sizeof(s.sc));
	s.sc.gfp_mask = GFP_KERNEL;
	s.sc.nid = 0;
	shrinker = &path.dentry->d_sb->s_shrink;
	count = shrinker->count_objects(shrinker, &s.sc);
	s.sc.nr_to_scan = max(count, 1UL);
	s.sc.nr_scanned = s.sc.nr_to_scan;
	freed = shrinker->scan_objects(shrinker, &s.sc);
	canary_ok(s.head, "stack shrink_control head");
	canary_ok(s.tail, "stack shrink_control tail");
	/* A scan that freed nothing wrote nothing: it would prove nothing. */
	check(count && count != SHRINK_EMPTY && freed && freed != SHRINK_STOP,
	      "scan of %s freed nothing (count %lu, freed %#lx)",
	      path.dentry->d_sb->s_id, count, freed);
	pr_info("abi_canary: %s %s: count %lu, freed %lu\n",
		path.dentry->d_sb->s_type->name, path.dentry->d_sb->s_id,
		count, freed == SHRINK_STOP ? 0 : freed);
	path_put(&path);
	return failures == before ? 0 : -EIO;
}

static const struct kernel_param_ops prune_ops = { .set = prune_set };
module_param_cb(prune, &prune_ops, NULL, 0200);
MODULE_PARM_DESC(prune, "path: scan its superblock with a shrink_control on this stack");

/* --- inode lookups on a filesystem of our own ----------------------- */

#define CANARYFS_MAGIC 0xab1ca4a2
#define NR_KEYS 64

struct canary_inode {
	u64 head[NR_CANARY];
	unsigned long key;
	struct inode vfs_inode;
	u64 tail[NR_CANARY];
};

static struct kmem_cache *canary_inode_cache;

static struct canary_inode *to_ci(struct inode *inode)
{
	return container_of(inode, struct canary_inode, vfs_inode);
}

static void canary_inode_once(void *p)
{
	struct canary_inode *ci = p;

	canary_set(ci->head);
	canary_set(ci->tail);
	inode_init_once(&ci->vfs_inode);
}

static struct inode *canary_alloc_inode(struct super_block *sb)
{
	struct canary_inode *ci = alloc_inode_sb(sb, canary_inode_cache, GFP_KERNEL);

	if (!ci)
		return NULL;
	ci->key = ~0UL;
	return &ci->vfs_inode;
}

static void canary_free_inode(struct inode *inode)
{
	struct canary_inode *ci = to_ci(inode);

	canary_ok(ci->head, "inode head");
	canary_ok(ci->tail, "inode tail");
	kmem_cache_free(canary_inode_cache, ci);
}

static const struct super_operations canary_sops = {
	.alloc_inode = canary_alloc_inode,
	.free_inode = canary_free_inode,
	.statfs = simple_statfs,
};

static int canary_init_fs_context(struct fs_context *fc)
{
	struct pseudo_fs_context *ctx = init_pseudo(fc, CANARYFS_MAGIC);

	if (!ctx)
		return -ENOMEM;
	ctx->ops = &canary_sops;
	return 0;
}

static struct file_system_type canary_fs_type = {
	.name = "abi_canaryfs",
	.init_fs_context = canary_init_fs_context,
	.kill_sb = kill_anon_super,
};

static int key_test(struct inode *inode, void *data)
{
	return to_ci(inode)->key == *(unsigned long *)data;
}

static int key_set(struct inode *inode, void *data)
{
	to_ci(inode)->key = *(unsigned long *)data;
	return 0;
}

/* One pass of NR_KEYS lookups; a key's hash is shared by several keys. */
static int lookup_pass(struct super_block *sb, struct inode **seen, bool create)
{
	unsigned long key;

	for (key = 0; key < NR_KEYS; key++) {
		struct inode *inode;

		if (create) {
			inode = iget5_locked(sb, key % 7, key_test, key_set, &key);
			if (!inode)
				return -ENOMEM;
			if (inode->i_state & I_NEW) {
				inode->i_mode = S_IFREG;
				set_nlink(inode, 1);
				unlock_new_inode(inode);
			}
		} else {
			inode = ilookup5(sb, key % 7, key_test, &key);
		}
		if (!check(inode, "ilookup5 lost key %lu", key))
			return -EIO;
		check(to_ci(inode)->key == key, "key %lu found inode of key %lu", key,
		      to_ci(inode)->key);
		if (!seen[key])
			seen[key] = inode;
		check(seen[key] == inode, "key %lu found two inodes", key);
		iput(inode);
	}
	return 0;
}

static int inode_lookups(void)
{
	struct inode **seen = kcalloc(NR_KEYS, sizeof(*seen), GFP_KERNEL);
	struct vfsmount *mnt;
	struct inode *inode, *again;
	int err, before = failures;

	if (!seen)
		return -ENOMEM;
	mnt = kern_mount(&canary_fs_type);
	if (IS_ERR(mnt)) {
		kfree(seen);
		return PTR_ERR(mnt);
	}
	err = lookup_pass(mnt->mnt_sb, seen, true);
	if (!err)
		err = lookup_pass(mnt->mnt_sb, seen, true);
	if (!err)
		err = lookup_pass(mnt->mnt_sb, seen, false);

	inode = err ? NULL : iget_locked(mnt->mnt_sb, 1000);
	if (!err && check(inode, "iget_locked failed")) {
		if (inode->i_state & I_NEW) {
			inode->i_mode = S_IFREG;
			set_nlink(inode, 1);
			unlock_new_inode(inode);
		}
		again = ilookup(mnt->mnt_sb, 1000);
		check(again == inode, "ilookup found %p, not %p", again, inode);
		if (again)
			iput(again);
		iput(inode);
	}
	kern_unmount(mnt);
	kfree(seen);
	return err ?: (failures == before ? 0 : -EIO);
}

/* --- module --------------------------------------------------------- */

static int __init abi_canary_init(void)
{
	int err;

	canary_inode_cache = kmem_cache_create("abi_canary_inode", sizeof(struct canary_inode),
					       0, SLAB_RECLAIM_ACCOUNT | SLAB_ACCOUNT,
					       canary_inode_once);
	if (!canary_inode_cache)
		return -ENOMEM;
	canary_obj_cache = kmem_cache_create("abi_canary_obj", sizeof(struct canary_obj), 0,
					     SLAB_ACCOUNT, NULL);
	if (!canary_obj_cache) {
		err = -ENOMEM;
		goto out_cache;
	}
	err = register_filesystem(&canary_fs_type);
	if (err)
		goto out_cache;
	err = inode_lookups();
	if (err)
		goto out_fs;
	err = never_registered();
	if (err)
		goto out_fs;
	numa_sh = canary_shrinker_new("numa", SHRINKER_NUMA_AWARE, false);
	if (IS_ERR(numa_sh)) {
		err = PTR_ERR(numa_sh);
		goto out_fs;
	}
	memcg_sh = canary_shrinker_new("memcg", SHRINKER_NUMA_AWARE | SHRINKER_MEMCG_AWARE,
				       true);
	if (IS_ERR(memcg_sh)) {
		err = PTR_ERR(memcg_sh);
		goto out_numa;
	}
	if (failures) {
		err = -EIO;
		goto out_memcg;
	}
	pr_info("abi_canary: loaded, all canaries intact\n");
	return 0;

out_memcg:
	canary_shrinker_free(memcg_sh);
out_numa:
	canary_shrinker_free(numa_sh);
out_fs:
	unregister_filesystem(&canary_fs_type);
out_cache:
	rcu_barrier();	/* the unmounted inodes are freed after a grace period */
	kmem_cache_destroy(canary_obj_cache);
	kmem_cache_destroy(canary_inode_cache);
	return err;
}

static void __exit abi_canary_exit(void)
{
	canary_shrinker_free(memcg_sh);
	canary_shrinker_free(numa_sh);
	unregister_filesystem(&canary_fs_type);
	rcu_barrier();
	kmem_cache_destroy(canary_obj_cache);
	kmem_cache_destroy(canary_inode_cache);
	pr_info("abi_canary: unloaded, %s\n", failures ? "FAILED" : "all canaries intact");
}

module_init(abi_canary_init);
module_exit(abi_canary_exit);
MODULE_DESCRIPTION("Canaries around objects a module shares with the shrinker and inode code");
MODULE_LICENSE("GPL");
