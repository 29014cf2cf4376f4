#!/usr/bin/python3
"""A FUSE file system that loses, on command, what a power cut would lose.

    /usr/bin/python3 powercut_fs.py <backing folder> <mountpoint>      (stays in the foreground)

Debian's python3-fusepy (libfuse 2, through ctypes): run it with /usr/bin/python3. (Debian's python3-fuse
1.0.5 cannot be used: its fsyncdir callback is built with a malformed format string, "&Oi", and the
file system process dies on the first fsync of a folder.)

The model. The backing folder is the disk: exactly what would be found after a power cut, nothing else.
Everything the mount shows lives in memory, loaded from the backing folder at mount and at every cut:

- a file's data: what reads see (`data`), and what was last fsynced (`synced`). write/truncate change
  `data` only and mark the 4 KB blocks they touch; fsync or fdatasync copies those blocks into `synced`,
  and into the backing file if the file has a durable name.
- the namespace, twice: each folder's `entries` (what lookups see now) and its `durable` entries (what
  the disk holds). create, mkdir, rename, unlink and rmdir change `entries` only; an fsync of the folder
  (fsyncdir, i.e. fsync on a directory fd) makes its `entries` its `durable` entries, and the backing
  folder follows: a newly durable name is written out with its file's *synced* data (a folder with its
  own durable entries), a name no longer there is removed. A rename is one journal transaction on the
  file systems this models: when a folder's fsync makes a name durable for a file durable elsewhere, the
  old name goes (from the disk and from the other folder's durable entries) in the same step.

Writing `cut` to `<mountpoint>/.powercut` is the power cut: every unsynced byte and every name change not
made durable by a folder fsync is dropped, and the mount shows the backing folder again. Handles opened
before the cut fail with EIO (the test kills the process first, as the power would). Reading `.powercut`
gives counters as JSON. `.powercut` is not listed by readdir.

Not modelled: hard links and symlinks (refused); ownership (chown is accepted and ignored); timestamps
are kept in memory only; permission bits are written with the data. POSIX advisory locks are not
implemented here: the kernel then keeps them itself, which is right for processes on this one machine.
The kernel is told to cache no attributes or names (attr_timeout=0, entry_timeout=0) so it asks again
after a cut; each open drops its cached pages (no keep_cache), and shared mmap (SQLite's -shm) works (no
direct_io, except on `.powercut`).
"""

import errno
import json
import os
import shutil
import stat
import sys
import time

from fusepy import FUSE

BLOCK = 4096
CONTROL = "/.powercut"


def fail(code):
    raise OSError(code, os.strerror(code))


class Node:
    """A file or a folder: its current state, and what of it is durable."""

    next_ino = 1

    def __init__(self, is_dir, mode, data=b""):
        self.ino = Node.next_ino
        Node.next_ino += 1
        self.is_dir = is_dir
        self.mode = mode
        self.mtime = self.atime = self.ctime = time.time_ns()
        self.data = bytearray(data)  # a file's data as read
        self.synced = bytearray(data)  # its data as last fsynced
        self.dirty = set()  # blocks of `data` written since the last fsync
        self.entries = {}  # a folder's names now: name -> Node
        self.durable = {}  # its names as last fsynced
        self.dparent = None  # the folder whose durable entries name this node
        self.dname = None




class Handle:
    def __init__(self, node, gen):
        self.node, self.gen = node, gen


class PowerCutFS:
    use_ns = True  # fusepy: times in nanoseconds

    def __init__(self, backing):
        self.root_dir = backing
        self.root = None
        self.gen = 0  # bumped by each cut
        self.handles = {}  # fh -> Handle
        self.next_fh = 1
        self.counts = {"cuts": 0, "fsyncs": 0, "dirFsyncs": 0}

    def __call__(self, op, *args):
        return getattr(self, op)(*args)

    # -- the disk (backing folder) --------------------------------------------------------------------

    def init(self, path):
        self.load()

    def load(self):
        """What the mount shows after a mount or a cut: the backing folder, all of it durable."""
        self.gen += 1
        self.handles.clear()

        def walk(path):
            st = os.lstat(path)
            if stat.S_ISDIR(st.st_mode):
                node = Node(True, st.st_mode)
                for name in sorted(os.listdir(path)):
                    child = walk(os.path.join(path, name))
                    node.entries[name] = node.durable[name] = child
                    child.dparent, child.dname = node, name
            else:
                with open(path, "rb") as f:
                    node = Node(False, st.st_mode, f.read())
            node.mtime, node.atime = st.st_mtime_ns, st.st_atime_ns
            return node

        self.root = walk(self.root_dir)

    def disk_path(self, node):
        """The backing path of a node with a durable name all the way up, else None."""
        parts = []
        while node is not self.root:
            if node.dparent is None:
                return None
            parts.append(node.dname)
            node = node.dparent
        return os.path.join(self.root_dir, *reversed(parts))

    def write_out(self, node, path):
        """A node newly durable at `path`: its synced data, or its folder with its durable entries."""
        if node.is_dir:
            os.makedirs(path, exist_ok=True)
            for name, child in node.durable.items():
                self.write_out(child, os.path.join(path, name))
        else:
            with open(path, "wb") as f:
                f.write(node.synced)
        os.chmod(path, stat.S_IMODE(node.mode))

    def drop_durable(self, folder, name):
        """`name` leaves `folder`'s durable entries, and the disk."""
        child = folder.durable.pop(name)
        if child.dparent is folder and child.dname == name:
            child.dparent = child.dname = None
        path = self.disk_path(folder)
        if path is not None:
            target = os.path.join(path, name)
            if os.path.isdir(target) and not os.path.islink(target):
                shutil.rmtree(target)
            elif os.path.lexists(target):
                os.unlink(target)

    def sync_file(self, node):
        self.counts["fsyncs"] += 1
        size = len(node.data)
        del node.synced[size:]
        node.synced.extend(bytes(size - len(node.synced)))
        path = self.disk_path(node)
        fd = os.open(path, os.O_WRONLY) if path else None
        try:
            for block in sorted(node.dirty):
                lo, hi = block * BLOCK, min(size, (block + 1) * BLOCK)
                if lo >= size:
                    continue
                node.synced[lo:hi] = node.data[lo:hi]
                if fd is not None:
                    os.pwrite(fd, node.data[lo:hi], lo)
            if fd is not None:
                os.ftruncate(fd, size)
                os.fchmod(fd, stat.S_IMODE(node.mode))
        finally:
            if fd is not None:
                os.close(fd)
        node.dirty.clear()

    def sync_dir(self, folder):
        self.counts["dirFsyncs"] += 1
        for name in [n for n, c in folder.durable.items() if folder.entries.get(n) is not c]:
            self.drop_durable(folder, name)
        for name, child in folder.entries.items():
            if folder.durable.get(name) is child:
                continue
            if child.dparent is not None:  # durable under another name: the rename's other half
                self.drop_durable(child.dparent, child.dname)
            folder.durable[name] = child
            child.dparent, child.dname = folder, name
            path = self.disk_path(folder)
            if path is not None:
                self.write_out(child, os.path.join(path, name))

    # -- the namespace now ----------------------------------------------------------------------------

    def lookup(self, path):
        node = self.root
        for part in path.strip("/").split("/"):
            if not part:
                continue
            if not node.is_dir:
                fail(errno.ENOTDIR)
            node = node.entries.get(part)
            if node is None:
                fail(errno.ENOENT)
        return node

    def parent_of(self, path):
        head, name = os.path.split(path)
        parent = self.lookup(head)
        if not parent.is_dir:
            fail(errno.ENOTDIR)
        return parent, name

    def handle(self, fi):
        h = self.handles.get(fi.fh)
        if h is None:
            fail(errno.EIO)  # opened before the cut
        return h

    def getattr(self, path, fi=None):
        if path == CONTROL:
            node = Node(False, stat.S_IFREG | 0o600)
        else:
            node = self.handle(fi).node if fi is not None and fi.fh in self.handles else self.lookup(path)
        size = 4096 if node.is_dir else len(node.data)
        return {
            "st_mode": node.mode,
            "st_ino": node.ino,
            "st_nlink": 2 + sum(c.is_dir for c in node.entries.values()) if node.is_dir else 1,
            "st_uid": os.getuid(),
            "st_gid": os.getgid(),
            "st_size": size,
            "st_blksize": BLOCK,
            "st_blocks": (size + 511) // 512,
            "st_atime": node.atime,
            "st_mtime": node.mtime,
            "st_ctime": node.ctime,
        }

    def readdir(self, path, fh):
        node = self.lookup(path)
        listing = [(".", node), ("..", node), *node.entries.items()]
        return [(name, {"st_ino": n.ino, "st_mode": n.mode}, 0) for name, n in listing]

    def fsyncdir(self, path, datasync, fh):
        self.sync_dir(self.lookup(path))

    def access(self, path, mode):
        if path != CONTROL:
            self.lookup(path)

    def statfs(self, path):
        st = os.statvfs(self.root_dir)
        keys = ("f_bsize", "f_frsize", "f_blocks", "f_bfree", "f_bavail", "f_files", "f_ffree", "f_namemax")
        return {k: getattr(st, k) for k in keys}

    def mkdir(self, path, mode):
        parent, name = self.parent_of(path)
        if name in parent.entries:
            fail(errno.EEXIST)
        parent.entries[name] = Node(True, stat.S_IFDIR | (mode & 0o7777))
        parent.mtime = time.time_ns()

    def rmdir(self, path):
        parent, name = self.parent_of(path)
        node = self.lookup(path)
        if not node.is_dir:
            fail(errno.ENOTDIR)
        if node.entries:
            fail(errno.ENOTEMPTY)
        del parent.entries[name]

    def unlink(self, path):
        parent, name = self.parent_of(path)
        if self.lookup(path).is_dir:
            fail(errno.EISDIR)
        del parent.entries[name]
        parent.mtime = time.time_ns()

    def rename(self, old, new):
        src_parent, src_name = self.parent_of(old)
        node = self.lookup(old)
        dst_parent, dst_name = self.parent_of(new)
        there = dst_parent.entries.get(dst_name)
        if there is not None and there is not node:
            if there.is_dir and not node.is_dir:
                fail(errno.EISDIR)
            if node.is_dir and not there.is_dir:
                fail(errno.ENOTDIR)
            if there.is_dir and there.entries:
                fail(errno.ENOTEMPTY)
        del src_parent.entries[src_name]
        dst_parent.entries[dst_name] = node
        src_parent.mtime = dst_parent.mtime = time.time_ns()

    def link(self, target, source):
        fail(errno.EPERM)

    def symlink(self, target, source):
        fail(errno.EPERM)

    def chmod(self, path, mode):
        node = self.lookup(path)
        node.mode = (node.mode & ~0o7777) | (mode & 0o7777)
        node.ctime = time.time_ns()

    def chown(self, path, uid, gid):
        self.lookup(path)

    def utimens(self, path, times=None):
        node = self.lookup(path)
        node.atime, node.mtime = times or (time.time_ns(), time.time_ns())

    # -- file data ------------------------------------------------------------------------------------

    def resize(self, node, size):
        old = len(node.data)
        if size < old:
            del node.data[size:]
        else:
            node.data.extend(bytes(size - old))
        node.dirty.update(range(min(old, size) // BLOCK, max(old, size) // BLOCK + 1))
        node.mtime = time.time_ns()

    def opened(self, node, fi):
        fi.fh, self.next_fh = self.next_fh, self.next_fh + 1
        self.handles[fi.fh] = Handle(node, self.gen)
        fi.direct_io = node is None  # .powercut: no size, so no page cache
        return 0

    def create(self, path, mode, fi):
        parent, name = self.parent_of(path)
        node = parent.entries.get(name)
        if node is not None and fi.flags & os.O_EXCL:
            fail(errno.EEXIST)
        if node is None:
            node = parent.entries[name] = Node(False, stat.S_IFREG | (mode & 0o7777))
            parent.mtime = time.time_ns()
        elif fi.flags & os.O_TRUNC:
            self.resize(node, 0)
        return self.opened(node, fi)

    def open(self, path, fi):
        if path == CONTROL:
            return self.opened(None, fi)
        node = self.lookup(path)
        if node.is_dir:
            fail(errno.EISDIR)
        if fi.flags & os.O_TRUNC:
            self.resize(node, 0)
        return self.opened(node, fi)

    def read(self, path, size, offset, fi):
        node = self.handle(fi).node
        if node is None:
            return (json.dumps(self.counts) + "\n").encode()[offset : offset + size]
        return bytes(node.data[offset : offset + size])

    def write(self, path, data, offset, fi):
        node = self.handle(fi).node
        if node is None:
            if data.strip() != b"cut":
                fail(errno.EINVAL)
            self.counts["cuts"] += 1
            self.load()
            return len(data)
        end = offset + len(data)
        if end > len(node.data):
            self.resize(node, end)
        node.data[offset:end] = data
        if data:
            node.dirty.update(range(offset // BLOCK, (end - 1) // BLOCK + 1))
        node.mtime = time.time_ns()
        return len(data)

    def truncate(self, path, length, fi=None):
        if path == CONTROL:
            return
        node = self.handle(fi).node if fi is not None else self.lookup(path)
        if node is not None:
            self.resize(node, length)

    def fsync(self, path, datasync, fi):
        node = self.handle(fi).node
        if node is not None:
            self.sync_file(node)

    def flush(self, path, fi):
        return 0

    def release(self, path, fi):
        self.handles.pop(fi.fh, None)


def main():
    if len(sys.argv) != 3 or not os.path.isdir(sys.argv[1]):
        print("usage: powercut_fs.py <backing folder> <mountpoint>", file=sys.stderr)
        sys.exit(2)
    FUSE(
        PowerCutFS(os.path.abspath(sys.argv[1])),
        sys.argv[2],
        raw_fi=True,
        foreground=True,
        nothreads=True,
        fsname="powercut",
        use_ino=True,
        hard_remove=True,
        big_writes=True,
        attr_timeout=0,
        entry_timeout=0,
        negative_timeout=0,
    )


if __name__ == "__main__":
    main()
