#!/usr/bin/env bash
# Measure sayso's Claude Code hook side by side with the peer hook
# cc-safety-net, in one run on this machine: detection on the labelled
# corpus and hook latency against /bin/true and a Go "hello".
#
#   bench/compare.sh [-n CALLS] [-skip-detection] [-gateway=false]
#
# The peer is installed from npm into ${SAYSO_PEER_DIR:-$HOME/.cache/sayso-peer},
# outside the repository. sayso is built from this checkout unless
# SAYSO_BIN names a binary; the forwarder sayso-hook and the launcher
# sayso-wall are built beside it when the checkout has them. The report goes to stdout; the run's scratch
# folder (kept, with detection.tsv) is named at the end.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
peer_version=2.4.5
peer_dir=${SAYSO_PEER_DIR:-$HOME/.cache/sayso-peer}
peer_js=$peer_dir/node_modules/cc-safety-net/dist/bin/cc-safety-net.js

if ! [ -f "$peer_js" ] || [ "$(node -p "require('$peer_dir/node_modules/cc-safety-net/package.json').version")" != "$peer_version" ]; then
	mkdir -p "$peer_dir"
	npm install --prefix "$peer_dir" --no-audit --no-fund --loglevel=error "cc-safety-net@$peer_version" >&2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sayso-compare.XXXXXX")
mkdir -p "$work/bin"
cd "$repo"
if [ -n "${SAYSO_BIN:-}" ]; then
	cp "$SAYSO_BIN" "$work/bin/sayso"
else
	CGO_ENABLED=0 go build -o "$work/bin/sayso" ./cmd/sayso
fi
# The wall's launcher beside sayso, as the README installs the three
# binaries: without it every step but a read asks, and with the gateway
# the run would time card waits, not the hook.
if [ -d cmd/sayso-wall ]; then
	CGO_ENABLED=0 go build -o "$work/bin/sayso-wall" ./cmd/sayso-wall
fi
forwarder=()
if [ -d cmd/sayso-hook ]; then
	# The forwarder runs the sayso beside it when no gateway answers.
	go build -o "$work/bin/sayso-hook" ./cmd/sayso-hook
	forwarder=(-sayso-hook "$work/bin/sayso-hook")
fi
go build -o "$work/bin/hello" ./bench/hello
go build -o "$work/bin/compare" ./bench/compare

"$work/bin/compare" \
	-sayso "$work/bin/sayso" \
	-node "$(command -v node)" \
	-peer "$peer_js" \
	-hello "$work/bin/hello" \
	-corpus "$repo/internal/risk/testdata/corpus.jsonl" \
	-work "$work" \
	"${forwarder[@]}" \
	"$@"
echo "scratch folder: $work" >&2
