#!/usr/bin/env bash
# Removes stale test binaries from a Cargo target directory: every build of
# a test target leaves a new executable (`deps/NAME-HASH`) beside the old
# ones, and on a busy machine they filled the disk (the linker then died
# with a bus error, mid-CI). Keeps the newest executable of each name, and
# any built in the last six hours (two live builds of one target, as
# different feature sets make, are not rebuilt every run); libraries are
# left alone (two versions of a crate are both needed).
#
#   bash scripts/prune-tests.sh [TARGET_DIR]    default: $CARGO_TARGET_DIR or target
set -uo pipefail
dir="${1:-${CARGO_TARGET_DIR:-target}}"
[ -d "$dir" ] || exit 0
python3 - "$dir" <<'PY'
import os, re, sys, time
root = sys.argv[1]
cutoff = time.time() - 6 * 3600
freed = removed = 0
for profile in ("debug", "release"):
    deps = os.path.join(root, profile, "deps")
    if not os.path.isdir(deps):
        continue
    newest = {}
    for name in os.listdir(deps):
        m = re.fullmatch(r"(.+)-[0-9a-f]{16}", name)
        path = os.path.join(deps, name)
        if not m or not os.path.isfile(path) or not os.access(path, os.X_OK):
            continue
        newest.setdefault(m.group(1), []).append((os.path.getmtime(path), path))
    for builds in newest.values():
        builds.sort(reverse=True)
        for mtime, path in builds[1:]:
            if mtime < cutoff:
                for stale in (path, path + ".d"):
                    if os.path.exists(stale):
                        freed += os.path.getsize(stale)
                        os.remove(stale)
                removed += 1
if removed:
    print(f"prune-tests: removed {removed} stale test binaries ({freed / 1e9:.1f} GB) from {root}", file=sys.stderr)
PY
