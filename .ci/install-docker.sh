#!/usr/bin/env bash
# Install Debian's Docker engine (docker.io), debootstrap, the MariaDB client, and the registry
# clients that fetch the pinned MySQL 5.6/5.7/8.0 packages (npm, Maven), then make sure a daemon
# answers on /var/run/docker.sock.
#
# Idempotent: re-running only starts dockerd when no daemon answers.
# dockerd runs with --bridge=none --iptables=false: containers use host
# networking only, and we never touch the host's firewall.
set -euo pipefail

LOG=${DOCKERD_LOG:-/var/log/dockerd-binlog-conformance.log}
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

need_pkgs=()
for p in docker.io debootstrap mariadb-client; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need_pkgs+=("$p")
done
# Any npm / mvn on PATH will do (generators/registry_packages.py); else Debian's.
command -v npm >/dev/null || need_pkgs+=(npm)
command -v mvn >/dev/null || need_pkgs+=(maven)
if [ ${#need_pkgs[@]} -gt 0 ]; then
    # Third-party sources on the machine may be unreachable; Debian's must work.
    $SUDO apt-get update || true
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends \
        "${need_pkgs[@]}"
fi

# /usr/local/bin/docker may be a stray newer client; always use the one from docker.io.
DOCKER=/usr/bin/docker
export DOCKER_HOST=${DOCKER_HOST:-unix:///var/run/docker.sock}

if ! $DOCKER info >/dev/null 2>&1; then
    echo "starting dockerd (log: $LOG)" >&2
    # The apt postinst may have left a systemd-less half state; start it ourselves.
    $SUDO sh -c "nohup /usr/sbin/dockerd --bridge=none --iptables=false --ip6tables=false \
        >>'$LOG' 2>&1 </dev/null &"
    for _ in $(seq 1 60); do
        $DOCKER info >/dev/null 2>&1 && break
        sleep 1
    done
fi

if ! $DOCKER info >/dev/null 2>&1; then
    echo "dockerd did not come up; last log lines:" >&2
    tail -n 30 "$LOG" >&2 || true
    exit 1
fi
$DOCKER version --format 'docker client {{.Client.Version}} / daemon {{.Server.Version}} (API {{.Server.APIVersion}})'
