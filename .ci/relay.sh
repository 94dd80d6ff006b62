#!/bin/sh
# relay.sh compiles the Relay client in .ci/relay/src against
# schema.graphqls with relay-compiler from npm (pinned), to check that the
# schema is one Relay accepts: @connection needs Relay's full PageInfo,
# @refetchable needs Node and Query.node. Artifacts go to .ci/cache only.
set -eu
cd "$(dirname "$0")/.."

relay=21.0.1
cache=.ci/cache/relay
if ! command -v npm >/dev/null; then
	echo "relay: no npm on PATH: skipping the relay-compiler check" >&2
	exit 0
fi
if [ ! -x "$cache/node_modules/.bin/relay-compiler" ] ||
	! grep -q "\"version\": \"$relay\"" "$cache/node_modules/relay-compiler/package.json"; then
	npm install --prefix "$cache" --no-audit --no-fund --no-save --loglevel=error "relay-compiler@$relay"
fi

# relay-compiler reads only files under the config's directory, and only
# schema files named *.graphql: the project is copied there.
work=$cache/project
rm -rf "$work"
mkdir -p "$work"
cp -R .ci/relay/src .ci/relay/relay.config.json "$work/"
cp schema.graphqls "$work/schema.graphql"
(cd "$work" && ../node_modules/.bin/relay-compiler)
echo "relay: relay-compiler $relay compiled .ci/relay/src against schema.graphqls"
