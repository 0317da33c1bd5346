#!/usr/bin/env bash
# Installs what building and testing PRISM needs on Debian/Ubuntu: a JDK 17+, Maven, git, fio, tar, e2fsprogs,
# and chromium (the report's browser test).
# Idempotent: installs nothing when everything is already there.
set -euo pipefail

missing=()
command -v javac >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || missing+=(maven)
command -v git >/dev/null 2>&1 || missing+=(git)
command -v fio >/dev/null 2>&1 || missing+=(fio)
command -v tar >/dev/null 2>&1 || missing+=(tar)
# the HTML report is tested in a real headless browser
[ -x /usr/bin/chromium ] || missing+=(chromium)
# mkfs.ext4 builds the small loop-mounted filesystem the ENOSPC test fills
command -v mkfs.ext4 >/dev/null 2>&1 || [ -x /sbin/mkfs.ext4 ] || missing+=(e2fsprogs)

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
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
