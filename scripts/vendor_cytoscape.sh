#!/usr/bin/env bash
# Refresh the vendored Cytoscape.js used by the web page of `kgrag serve` (src/kgrag/service/static/).
#
# Why vendored: the page must work offline (no CDN at run time), so the minified build and its
# licence are committed next to the page. This script fetches the pinned release from the npm
# registry with `npm pack` (a tarball, no node_modules, no install scripts run), checks it is the
# version asked for, and copies package/dist/cytoscape.min.js and package/LICENSE into place.
#
# Usage: scripts/vendor_cytoscape.sh [VERSION]     (default: the pin below; prints the version vendored)
set -euo pipefail
VERSION=${1:-3.34.4}
here="$(cd "$(dirname "$0")/.." && pwd)"
dest="$here/src/kgrag/service/static/vendor"
command -v npm >/dev/null || { echo "vendor_cytoscape.sh: npm not found" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "cytoscape@$VERSION" >/dev/null)
tgz=$(ls "$tmp"/cytoscape-*.tgz)
tar -xzf "$tgz" -C "$tmp" package/dist/cytoscape.min.js package/LICENSE package/package.json
got=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$tmp/package/package.json" | head -1)
[ "$got" = "$VERSION" ] || { echo "vendor_cytoscape.sh: asked for $VERSION, npm gave $got" >&2; exit 1; }
mkdir -p "$dest"
cp "$tmp/package/dist/cytoscape.min.js" "$dest/cytoscape.min.js"
cp "$tmp/package/LICENSE" "$dest/LICENSE-cytoscape.txt"
echo "cytoscape $got -> $dest ($(wc -c <"$dest/cytoscape.min.js") bytes, sha256 $(sha256sum "$dest/cytoscape.min.js" | cut -c1-16))"
