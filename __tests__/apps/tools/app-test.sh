#!/usr/bin/env bash
# Stand-in for an app's test suite (`npm test`, `bin/rails test`, `python
# manage.py test`): connects to $DATABASE_URL as the app would and runs one
# query that needs the PR's schema and its data; fails unless it returns a
# count above zero.
set -euo pipefail
: "${DATABASE_URL:?the tests need DATABASE_URL}"
n="$(psql -X -tA -v ON_ERROR_STOP=1 "$DATABASE_URL" -c "$1")"
echo "tests: $1 -> $n"
[ "$n" -gt 0 ]
