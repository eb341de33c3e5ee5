#!/usr/bin/env bash
# Stand-in for a migration tool (`prisma migrate deploy`, `rails db:migrate`,
# `python manage.py migrate`, `drizzle-kit migrate`): applies each
# migrations/*.sql (of the folder it runs in, or $MIGRATIONS) not yet recorded
# in _migrations, one transaction each, with psql on the libpq variables or
# $DATABASE_URL. It appends what it applied to applied.log and "migrate" to
# order.log, so a test can tell what ran, and in which order.
set -euo pipefail
dir="${MIGRATIONS:-migrations}"
db=(psql -X -q -v ON_ERROR_STOP=1)
[ -n "${DATABASE_URL:-}" ] && db+=("$DATABASE_URL")
"${db[@]}" -c 'CREATE TABLE IF NOT EXISTS _migrations (name text PRIMARY KEY)'
applied=()
for file in "$dir"/*.sql; do
  [ -e "$file" ] || continue
  name="$(basename "$file")"
  done_already="$("${db[@]}" -tA -c "SELECT 1 FROM _migrations WHERE name = '$name'")"
  [ -n "$done_already" ] && continue
  "${db[@]}" -1 -f "$file" -c "INSERT INTO _migrations VALUES ('$name')"
  applied+=("$name")
done
echo "${applied[*]:-}" >> applied.log
echo migrate >> order.log
echo "migrations applied: ${applied[*]:-none}"
