#!/usr/bin/env bash
# Stand-in for a migration tool (`prisma migrate deploy`, `drizzle-kit
# migrate`, `rails db:prepare`, `python manage.py migrate`): applies each
# migration of $MIGRATIONS (default: migrations), `*.sql` or Prisma's
# `*/migration.sql`, in name order, that _migrations does not record yet,
# each in one transaction, with psql on $DATABASE_URL (or the libpq
# variables). It appends what it applied to applied.log and "migrate" to
# order.log, so a test can tell what ran, and in which order.
set -euo pipefail
dir="${MIGRATIONS:-migrations}"
db=(psql -X -q -v ON_ERROR_STOP=1)
[ -n "${DATABASE_URL:-}" ] && db+=("$DATABASE_URL")
"${db[@]}" -c 'CREATE TABLE IF NOT EXISTS _migrations (name text PRIMARY KEY)'
applied=()
for file in $(ls -d "$dir"/*.sql "$dir"/*/migration.sql 2>/dev/null | sort); do
  name="${file#"$dir"/}"
  done_already="$("${db[@]}" -tA -c "SELECT 1 FROM _migrations WHERE name = '$name'")"
  [ -n "$done_already" ] && continue
  "${db[@]}" -1 -f "$file" -c "INSERT INTO _migrations VALUES ('$name')"
  applied+=("$name")
done
echo "${applied[*]:-}" >> applied.log
echo migrate >> order.log
echo "migrations applied: ${applied[*]:-none}"
