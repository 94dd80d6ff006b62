#!/bin/sh
# playground-assets.sh [DIR] installs GraphiQL and the React it runs on,
# at the pinned versions, from npm into DIR (default server/playground, the
# files the binary embeds), with their licences. Run it to upgrade
# GraphiQL, then commit server/playground; the server never fetches them.
#
# GraphiQL 4.x is the last line shipping a UMD build (graphiql.min.js,
# global GraphiQL) that runs on React 18's UMD builds without a bundler;
# server/playground/index.html and start.js expect those globals.
set -eu

dir=${1:-$(dirname "$0")/../server/playground}
graphiql=4.1.2
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
cp "$m/graphiql/LICENSE" "$dir/LICENSE.graphiql"
# react and react-dom ship the same MIT licence.
cp "$m/react/LICENSE" "$dir/LICENSE.react"
echo "playground assets (graphiql $graphiql, react $react) in $dir"
