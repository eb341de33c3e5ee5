#!/usr/bin/env bash
# Stand-in for a data seed (`prisma db seed`, `rails db:seed`,
# `python manage.py loaddata`): runs the SQL file it is given with psql on
# the libpq variables or $DATABASE_URL, in one transaction, and appends
# "seed" to order.log.
set -euo pipefail
db=(psql -X -q -v ON_ERROR_STOP=1)
[ -n "${DATABASE_URL:-}" ] && db+=("$DATABASE_URL")
"${db[@]}" -1 -f "$1"
echo seed >> order.log
echo "seeded from $1"
