#!/usr/bin/env bash
# Stand-in for the Vercel CLI (`npx vercel`), which needs Vercel's network:
#   pull --yes --environment=preview --token=T   needs VERCEL_ORG_ID, VERCEL_PROJECT_ID and a token;
#                                                writes .vercel/project.json
#   build --token=T                              needs the pull; queries $DATABASE_URL as an app's build
#                                                would (rows of customers) and writes .vercel/output/build.txt
#   deploy --prebuilt --token=T                  needs the build's output; prints the preview's URL
set -euo pipefail
cmd="${1:?a vercel command}"
shift
token=""
for arg in "$@"; do case "$arg" in --token=*) token="${arg#--token=}" ;; esac; done
[ -n "$token" ] || { echo "Error: no token (--token)" >&2; exit 1; }
case "$cmd" in
  pull)
    : "${VERCEL_ORG_ID:?vercel pull needs VERCEL_ORG_ID}" "${VERCEL_PROJECT_ID:?vercel pull needs VERCEL_PROJECT_ID}"
    mkdir -p .vercel
    printf '{"orgId":"%s","projectId":"%s"}\n' "$VERCEL_ORG_ID" "$VERCEL_PROJECT_ID" > .vercel/project.json
    echo "Downloaded project settings to .vercel/project.json" >&2 ;;
  build)
    [ -f .vercel/project.json ] || { echo "Error: run vercel pull first" >&2; exit 1; }
    : "${DATABASE_URL:?the build needs DATABASE_URL}"
    n="$(psql -X -tA -v ON_ERROR_STOP=1 "$DATABASE_URL" -c 'SELECT count(*) FROM customers')"
    mkdir -p .vercel/output
    echo "customers=$n" > .vercel/output/build.txt
    echo "Build Completed in .vercel/output" >&2 ;;
  deploy)
    [[ " $* " == *" --prebuilt "* ]] || { echo "Error: expected --prebuilt" >&2; exit 1; }
    [ -f .vercel/output/build.txt ] || { echo "Error: no .vercel/output: run vercel build first" >&2; exit 1; }
    echo "https://shop-web-git-preview-acme.vercel.app" ;;
  *) echo "Error: unknown command $cmd" >&2; exit 1 ;;
esac
