"""Runs a command the way a container of the chart runs it, as far as one machine allows without a
container runtime: in its own mount namespace, chrooted into a root file system that is read-only
except for the pod's volumes (bind mounts of host directories at the rendered mount paths, read-only
where the pod mounts them so), as the pod's user, group and fsGroup, without new privileges, with
exactly the given environment and working directory, and in a network namespace of its own (or
another container's, like two containers of one pod), so the rendered port is bound as is.

The root holds the machine's /usr (the JRE), a copy of /etc whose entries are read-only binds
(with the image's user in passwd and the cluster's names in hosts), /proc, /dev and /sys, and the
image's files placed by the caller. Needs root, unshare, nsenter, setpriv and chroot.
"""
import ctypes
import os
import shlex
import shutil
import subprocess
from pathlib import Path

CLONE_NEWNET = 0x40000000
REQUIRED_TOOLS = ("unshare", "nsenter", "setpriv", "chroot", "mount", "ip")


def missing_requirements():
    """Why containers cannot be run here, or None."""
    if os.geteuid() != 0:
        return "needs root (mount namespaces, chroot, setpriv)"
    missing = [t for t in REQUIRED_TOOLS if shutil.which(t) is None]
    if missing:
        return f"missing tools: {', '.join(missing)}"
    probe = subprocess.run(["unshare", "--mount", "--net", "--propagation", "private", "true"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        return f"cannot create mount and network namespaces: {probe.stderr.strip()}"
    return None


class Container:
    """One container: `mounts` maps a path inside to (host path, read_only); `files` maps a path
    inside to a host file bound read-only (the image's own files); `hosts` are extra /etc/hosts lines."""

    def __init__(self, root_dir, argv, env, workdir, uid, gid, groups, mounts, files, hosts=(), passwd_line=None):
        self.root = Path(root_dir)
        self.argv, self.env, self.workdir = list(argv), dict(env), workdir
        self.uid, self.gid, self.groups = uid, gid, list(groups)
        self.mounts, self.files = dict(mounts), dict(files)
        self.hosts, self.passwd_line = list(hosts), passwd_line

    def script(self, bring_up_loopback):
        r = str(self.root)
        cmds = ["set -e"]
        if bring_up_loopback:
            cmds.append("ip link set lo up")
        cmds.append(f"mount -t tmpfs -o mode=755 cairn-root {q(r)}")
        for entry in sorted(os.listdir("/")):
            src = Path("/") / entry
            if src.is_symlink():
                cmds.append(f"ln -s {q(os.readlink(src))} {q(r + '/' + entry)}")
            elif entry == "usr":
                cmds.append(f"mkdir {q(r + '/usr')} && mount --bind -o ro /usr {q(r + '/usr')}")
            elif entry in ("proc", "dev", "sys"):
                cmds.append(f"mkdir {q(r + '/' + entry)} && mount --rbind /{entry} {q(r + '/' + entry)}")
        cmds += self._etc(r)
        # The image's working directory exists in the image (WORKDIR makes it), a volume or not.
        cmds.append(f"mkdir -p {q(r + self.workdir)}")
        for inside, host in sorted(self.files.items()):
            target = r + inside
            kind = "mkdir -p" if Path(host).is_dir() else "touch"
            cmds.append(f"mkdir -p {q(os.path.dirname(target))} && {kind} {q(target)}"
                        f" && mount --bind -o ro {q(str(host))} {q(target)}")
        for inside, (host, read_only) in sorted(self.mounts.items()):
            target = r + inside
            cmds.append(f"mkdir -p {q(target)} && mount --bind{' -o ro' if read_only else ''} {q(str(host))} {q(target)}")
        cmds.append(f"mount -o remount,ro {q(r)}")
        env = ["env", "-i"] + [f"{k}={v}" for k, v in sorted(self.env.items())]
        groups = ",".join(str(g) for g in self.groups) or "-"
        user = ["setpriv", f"--reuid={self.uid}", f"--regid={self.gid}", "--no-new-privs",
                f"--groups={groups}" if self.groups else "--clear-groups"]
        inner = f"cd {q(self.workdir)} && exec " + " ".join(q(w) for w in user + env + self.argv)
        cmds.append(f"exec chroot {q(r)} /bin/sh -c {q(inner)}")
        return "\n".join(cmds)

    def _etc(self, r):
        cmds = [f"mkdir {q(r + '/etc')}"]
        for entry in sorted(os.listdir("/etc")):
            src, dst = f"/etc/{entry}", f"{r}/etc/{entry}"
            if entry in ("hosts", "passwd"):
                continue
            if os.path.islink(src):
                cmds.append(f"ln -s {q(os.readlink(src))} {q(dst)}")
            elif os.path.isdir(src):
                cmds.append(f"mkdir {q(dst)} && mount --bind -o ro {q(src)} {q(dst)}")
            elif os.path.isfile(src):
                cmds.append(f"touch {q(dst)} && mount --bind -o ro {q(src)} {q(dst)}")
        hosts = "127.0.0.1 localhost\n::1 localhost\n" + "".join(line + "\n" for line in self.hosts)
        passwd = Path("/etc/passwd").read_text() + (self.passwd_line + "\n" if self.passwd_line else "")
        cmds.append(f"printf %s {q(hosts)} > {q(r + '/etc/hosts')}")
        cmds.append(f"printf %s {q(passwd)} > {q(r + '/etc/passwd')}")
        return cmds

    def start(self, stdout, net_of=None):
        """Starts it; `net_of`: a running Container's process whose network namespace it joins."""
        self.root.mkdir(parents=True, exist_ok=True)
        prefix = (["nsenter", f"--net=/proc/{net_of.pid}/ns/net"] if net_of is not None else []) + \
                 ["unshare", "--mount", "--propagation", "private"] + ([] if net_of is not None else ["--net"])
        return subprocess.Popen(prefix + ["sh", "-c", self.script(bring_up_loopback=net_of is None)],
                                stdout=stdout, stderr=subprocess.STDOUT)


class NetworkNamespace:
    """Moves the calling (single-threaded) process into a process's network namespace, and back."""

    def __init__(self, pid):
        self.pid = pid
        self.libc = ctypes.CDLL(None, use_errno=True)

    def __enter__(self):
        self.home = os.open("/proc/self/ns/net", os.O_RDONLY)
        target = os.open(f"/proc/{self.pid}/ns/net", os.O_RDONLY)
        try:
            self._setns(target)
        finally:
            os.close(target)
        return self

    def __exit__(self, *exc):
        try:
            self._setns(self.home)
        finally:
            os.close(self.home)

    def _setns(self, fd):
        if self.libc.setns(fd, CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), "setns failed")


def q(word):
    return shlex.quote(str(word))
