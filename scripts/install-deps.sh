#!/usr/bin/env bash
# Installs what PRISM needs on Debian/Ubuntu with apt-get, only what is missing:
#   scripts/install-deps.sh          building and running it: a JDK 17+, Maven, git, tar
#   scripts/install-deps.sh --test   and what the tests use too: fio, e2fsprogs (mkfs.ext4 for the
#                                    full-filesystem test), chromium (the report's browser test), fuse3
#                                    and libfuse3-dev (faultfs), sshfs and openssh-server (an sshfs target),
#                                    bpftrace and strace (file-call attribution and its observer),
#                                    prometheus-pushgateway and prometheus (promtool) for the metrics export
set -euo pipefail

missing=()
command -v javac >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || missing+=(maven)
command -v git >/dev/null 2>&1 || missing+=(git)
command -v tar >/dev/null 2>&1 || missing+=(tar)
if [ "${1:-}" = "--test" ]; then
  command -v fio >/dev/null 2>&1 || missing+=(fio)
  command -v mkfs.ext4 >/dev/null 2>&1 || [ -x /sbin/mkfs.ext4 ] || missing+=(e2fsprogs)
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  # faultfs, the fault-injecting FUSE filesystem the tests compile and mount
  command -v gcc >/dev/null 2>&1 || missing+=(gcc)
  [ -f /usr/include/fuse3/fuse.h ] || missing+=(libfuse3-dev)
  command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
  command -v fusermount3 >/dev/null 2>&1 || missing+=(fuse3)
  # the kernel trace of programs' file calls (syscalls=kernel) and strace, its observer in the tests
  command -v bpftrace >/dev/null 2>&1 || missing+=(bpftrace)
  command -v strace >/dev/null 2>&1 || missing+=(strace)
  # a real network filesystem for the tests: sshfs through an sshd of the test's own on loopback
  command -v sshfs >/dev/null 2>&1 || missing+=(sshfs)
  [ -x /usr/sbin/sshd ] || missing+=(openssh-server)
  command -v ssh-keygen >/dev/null 2>&1 || missing+=(openssh-client)
  # a real Pushgateway (started on loopback by the test, stopped after) and promtool, the metrics' observers
  command -v prometheus-pushgateway >/dev/null 2>&1 || missing+=(prometheus-pushgateway)
  command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
fi

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
echo "install-deps: installing ${missing[*]}" >&2
$sudo apt-get update -q
policy=""
if [[ " ${missing[*]} " == *" openssh-server "* ]] && [ ! -e /usr/sbin/policy-rc.d ]; then
  # the tests start an sshd of their own on loopback: the package must not start a system one on every interface
  policy=/usr/sbin/policy-rc.d
  printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
  $sudo chmod +x "$policy"
fi
status=0
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" || status=$?
if [ -n "$policy" ]; then
  $sudo rm -f "$policy"
fi
exit "$status"
