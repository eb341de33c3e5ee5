/**
 * The connection strings of a branch (Neon API spec: connection_uris of a
 * create-branch answer; `GET …/connection_uri` with `pooled` for an existing
 * branch): pooled and direct, for the `database`/`role` inputs.
 */
import { replaceHost } from '../connection.js'
import type { NeonClient } from './client.js'
import { BranchRefusedError } from './preview-branch.js'
import type { Branch, ConnectionUri } from './shapes.js'

/** The pooled form of a direct URL: the pooler host when given, else `-pooler` added to the first label. */
export function pooledOf(directUrl: string, poolerHost?: string): string {
  return replaceHost(directUrl, (host) => poolerHost || host.replace(/^([^.]+)/, '$1-pooler'))
}

/** Chooses the connection URI of the `database`/`role` inputs, or the only one. */
export function chooseUri(uris: ConnectionUri[], database: string, role: string): ConnectionUri | undefined {
  const matching = uris.filter(
    (u) => (!database || u.connection_parameters.database === database) && (!role || u.connection_parameters.role === role)
  )
  return matching.length === 1 || (matching.length > 1 && (database || role)) ? matching[0] : undefined
}

/** Connection strings of an existing branch, from the connection-URI endpoint (pooled and direct). */
export async function connectionOf(
  client: NeonClient,
  branch: Branch,
  o: { database: string; role: string }
): Promise<{ pooledUrl: string; directUrl: string }> {
  const endpoints = await client.listEndpoints(branch.id)
  if (!endpoints.some((e) => e.type === 'read_write')) {
    throw new BranchRefusedError(`Branch "${branch.name}" has no read-write compute; delete it or set \`reuse: false\`.`)
  }
  let { database, role } = o
  if (!database || !role) {
    const dbs = await client.listDatabases(branch.id)
    const db = database ? dbs.find((d) => d.name === database) : dbs.length === 1 ? dbs[0] : undefined
    if (!db) {
      throw new BranchRefusedError(
        database
          ? `Branch "${branch.name}" has no database "${database}" (input \`database\`); it has: ${dbs.map((d) => d.name).join(', ') || 'none'}.`
          : `Branch "${branch.name}" has ${dbs.length} databases (${dbs.map((d) => d.name).join(', ')}); set \`database\` to choose one.`
      )
    }
    database = db.name
    role ||= db.owner_name
  }
  const [pooledUrl, directUrl] = await Promise.all([
    client.connectionUri(branch.id, database, role, true),
    client.connectionUri(branch.id, database, role, false)
  ])
  return { pooledUrl, directUrl }
}
