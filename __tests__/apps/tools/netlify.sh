#!/usr/bin/env bash
# Stand-in for the Netlify CLI (`npx netlify`), which needs Netlify's network:
#   deploy --build --alias A   needs NETLIFY_AUTH_TOKEN and NETLIFY_SITE_ID; the build queries
#                              $DATABASE_URL as an app's build would (rows of customers) into
#                              .netlify/build.txt; prints the deploy's URL, https://A--<site>.netlify.app
set -euo pipefail
[ "${1:-}" = deploy ] || { echo "Error: expected netlify deploy" >&2; exit 1; }
shift
: "${NETLIFY_AUTH_TOKEN:?netlify deploy needs NETLIFY_AUTH_TOKEN}" "${NETLIFY_SITE_ID:?netlify deploy needs NETLIFY_SITE_ID}"
alias="" build=false
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=true ;;
    --alias) alias="${2:?--alias needs a name}"; shift ;;
    --alias=*) alias="${1#--alias=}" ;;
  esac
  shift
done
[ "$build" = true ] || { echo "Error: expected --build" >&2; exit 1; }
[ -n "$alias" ] || { echo "Error: expected --alias" >&2; exit 1; }
: "${DATABASE_URL:?the build needs DATABASE_URL}"
n="$(psql -X -tA -v ON_ERROR_STOP=1 "$DATABASE_URL" -c 'SELECT count(*) FROM customers')"
mkdir -p .netlify
echo "customers=$n" > .netlify/build.txt
echo "Website draft URL: https://${alias}--${NETLIFY_SITE_ID}.netlify.app"
