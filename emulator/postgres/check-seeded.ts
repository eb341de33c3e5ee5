/**
 * `tsx emulator/postgres/check-seeded.ts URL…`: connects to each connection string as
 * a later workflow step would (TLS verified against NODE_EXTRA_CA_CERTS) and
 * checks that examples/seed.sql was loaded: the `customers` table has rows.
 * Prints one line per URL without its password; exits 1 on the first failure.
 * Used by the `uses: ./` job in .github/workflows/ci.yml.
 */
import pg from 'pg'

const urls = process.argv.slice(2)
if (urls.length === 0 || urls.some((u) => !u)) {
  console.log('::error::check-seeded: expected one or more non-empty connection strings (an output of the action was empty)')
  process.exit(1)
}
for (const url of urls) {
  const shown = new URL(url)
  shown.password = ''
  const client = new pg.Client({ connectionString: url })
  try {
    await client.connect()
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM customers')
    const n = Number(rows[0].n)
    if (!(n > 0)) throw new Error('the customers table is empty')
    console.log(`${shown.host}${shown.pathname}: ${n} customers`)
  } catch (err) {
    console.log(`::error::check-seeded: ${shown.host}${shown.pathname}: ${(err as Error).message}`)
    process.exitCode = 1
    break
  } finally {
    await client.end().catch(() => undefined)
  }
}
