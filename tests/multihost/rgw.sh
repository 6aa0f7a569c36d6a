#!/usr/bin/env bash
# A single-node Ceph cluster with the RADOS Gateway (Debian's packages), for the
# multi-host test and the recipe in docs/deploy.md: one monitor, one manager-less
# OSD on memstore (data in memory: a test bucket, not a store), no cephx, and
# radosgw on the given address and port. Everything lives under DIR.
#   rgw.sh start DIR ADDRESS PORT ACCESS_KEY SECRET_KEY
#   rgw.sh stop DIR
set -euo pipefail
cmd=$1 dir=$2

stop() {
  pids=$(cat "$dir"/run/*.pid 2>/dev/null || true)
  [ -n "$pids" ] || return 0
  kill $pids 2>/dev/null || true
  for _ in $(seq 1 50); do
    kill -0 $pids 2>/dev/null || return 0; sleep 0.2
  done
  kill -9 $pids 2>/dev/null || true
}

if [ "$cmd" = stop ]; then stop; exit 0; fi

addr=$3 port=$4 access=$5 secret=$6
conf="$dir/ceph.conf"
mkdir -p "$dir"/{run,log,mon,osd}
fsid=$(cat /proc/sys/kernel/random/uuid)
cat >"$conf" <<CONF
[global]
fsid = $fsid
mon host = v1:$addr:6789
mon initial members = a
auth cluster required = none
auth service required = none
auth client required = none
auth allow insecure global id reclaim = true
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd crush chooseleaf type = 0
# The OSD would place itself in the CRUSH map as it starts, in a command sent
# before it knows the cluster's fsid (refused as "wrong fsid", now and then):
# it is placed by this script instead.
osd crush update on start = false
osd class update on start = false
mon allow pool size one = true
mon warn on pool no redundancy = false
osd objectstore = memstore
memstore device bytes = 2147483648
run dir = $dir/run
pid file = $dir/run/\$name.pid
admin socket = $dir/run/\$name.asok
log file = $dir/log/\$name.log
keyring = $dir/keyring
mon data = $dir/mon/\$name
osd data = $dir/osd/\$name
ms bind msgr2 = false
[client.rgw.a]
rgw frontends = beast endpoint=$addr:$port
rgw dns name = $addr
rgw data = $dir/rgw
CONF
ceph-authtool --create-keyring "$dir/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
ceph-authtool "$dir/keyring" --gen-key -n client.admin --cap mon 'allow *' --cap osd 'allow *' --cap mgr 'allow *' >/dev/null
monmaptool --create --fsid "$fsid" --addv a "[v1:$addr:6789]" "$dir/monmap" >/dev/null
ceph-mon -c "$conf" --mkfs -i a --monmap "$dir/monmap" --keyring "$dir/keyring"
ceph-mon -c "$conf" -i a
# The OSD's store first: it picks its own uuid (memstore ignores --osd-uuid).
osd=0
mkdir -p "$dir/osd/osd.$osd"
ceph-osd -c "$conf" -i "$osd" --mkfs 2>>"$dir/log/mkfs.log"
uuid=$(cat "$dir/osd/osd.$osd/fsid")
# The monitor takes a moment to form its quorum of one; until then it refuses
# commands. With the uuid, creating the OSD is idempotent: a retry is harmless.
created=
for _ in $(seq 1 240); do
  created=$(ceph -c "$conf" --connect-timeout 5 osd create "$uuid" "$osd" 2>/dev/null) && break
  sleep 0.5
done
[ "$created" = "$osd" ] || { echo "the Ceph monitor did not answer; see $dir/log" >&2; exit 1; }
ceph -c "$conf" osd crush add "osd.$osd" 1.0 root=default >/dev/null 2>&1
ceph-osd -c "$conf" -i "$osd"
for _ in $(seq 1 240); do
  ceph -c "$conf" osd stat 2>/dev/null | grep -q '1 up' && break; sleep 0.5
done
mkdir -p "$dir/rgw"
radosgw -c "$conf" -n client.rgw.a
radosgw-admin -c "$conf" user create --uid=benchview --display-name=benchview \
  --access-key="$access" --secret-key="$secret" >/dev/null
for _ in $(seq 1 480); do
  curl -s -o /dev/null "http://$addr:$port/" && exit 0; sleep 0.5
done
echo "radosgw did not answer on $addr:$port; see $dir/log" >&2
exit 1
