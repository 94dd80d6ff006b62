#!/bin/sh
# playground-assets.sh DIR installs the GraphiQL playground's scripts and
# styles from npm into DIR, for `papergraph serve --playground-assets DIR`
# on machines that cannot reach the CDN gqlgen's playground loads them from.
#
# The versions are pinned: graphiql 3.x is the last line shipping a UMD
# build (graphiql.min.js, global GraphiQL) that runs on React 18's UMD
# builds without a bundler; the page in server/playground.go expects them.
set -eu

if [ $# -ne 1 ]; then
	echo "usage: $0 DIR" >&2
	exit 2
fi
dir=$1
graphiql=3.8.3
react=18.3.1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# --ignore-scripts: nothing is built, only files are copied out.
npm install --prefix "$tmp" --no-audit --no-fund --ignore-scripts --loglevel=error \
	"graphiql@$graphiql" "react@$react" "react-dom@$react"

mkdir -p "$dir"
m=$tmp/node_modules
cp "$m/graphiql/graphiql.min.js" "$m/graphiql/graphiql.min.css" \
	"$m/react/umd/react.production.min.js" \
	"$m/react-dom/umd/react-dom.production.min.js" "$dir/"
echo "playground assets (graphiql $graphiql, react $react) in $dir"
