/**
 * Emulator of the instant database service (its API document): exact paths, fields,
 * statuses and errors, each database a real PostgreSQL database with its own
 * login role.
 *
 * Choices where that document says "not shown": a create answers HTTP 201; error
 * bodies are `{ "error": <message> }` plus `hint` for `Missing referrer`;
 * `CLAIMING` is entered by `startClaim` and left by `claim`.
 *
 * The project id field: the live service answers `neon_project_id`, the API
 * document says `svc_project_id`; `fieldNames` picks which one this emulator answers
 * (default: the live service's). A claim removes the expiry: `expires_at`
 * becomes null along with `connection_string`.
 */
import { randomBytes } from 'node:crypto'
import { ServiceServer } from '../http-kit.js'
import type { PostgresServer } from '../postgres/postgres.js'

export const REGION = 'us-east-2'
const LIFETIME_MS = 72 * 3600 * 1000

/** A database as the service stores it, with what tests need to check. */
export interface InstantRecord {
  id: string
  status: 'UNCLAIMED' | 'CLAIMING' | 'CLAIMED'
  /** Id of the underlying platform project (answered as `neon_project_id` or `svc_project_id`). */
  project_id: string
  connection_string: string | null
  claim_url: string
  expires_at: string | null
  created_at: string
  updated_at: string
  enable_logical_replication: boolean
  ref: string
  /** Name of the PostgreSQL database behind it. */
  database: string
  role: string
  password: string
}

/** A UUID v7 (RFC 9562): 48-bit Unix milliseconds, version 7, variant 10, random bits. */
export function uuidv7(now = Date.now()): string {
  const b = randomBytes(16)
  b.writeUIntBE(now, 0, 6)
  b[6] = (b[6] & 0x0f) | 0x70
  b[8] = (b[8] & 0x3f) | 0x80
  const h = b.toString('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

const alnum = (n: number): string =>
  Array.from(randomBytes(n), (x) => 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'[x % 62]).join('')

export interface InstantOptions {
  /**
   * `plain` passwords look like the service's (`npg_` + 16 letters/digits);
   * `special` adds characters that must be URL-encoded (`@ : / % + & #`), to
   * prove they are kept byte for byte and masked in every form.
   */
  passwords?: 'plain' | 'special'
  /** `live`: the project id as `neon_project_id` (the live service); `seed`: as `svc_project_id` (the API document). */
  fieldNames?: 'live' | 'seed'
}

export class InstantService {
  readonly server = new ServiceServer('instant', (message, _id, body) => body ?? { error: message })
  readonly databases = new Map<string, InstantRecord>()
  passwords: 'plain' | 'special'
  fieldNames: 'live' | 'seed'

  constructor(
    private readonly pg: PostgresServer,
    options: InstantOptions = {}
  ) {
    this.passwords = options.passwords ?? 'plain'
    this.fieldNames = options.fieldNames ?? 'live'
    this.server
      .route('POST', /^\/api\/v1\/database\/?$/, async (req) => {
        let body: Record<string, unknown>
        try {
          body = JSON.parse(req.text) as Record<string, unknown>
          if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error('not an object')
        } catch {
          return { status: 500, body: { error: 'Failed to create the database.' } }
        }
        if (body.ref === undefined || body.ref === null || body.ref === '') {
          return {
            status: 400,
            body: { error: 'Missing referrer', hint: 'Pass a non-empty `ref` (a referrer id) in the request body.' }
          }
        }
        if (typeof body.ref !== 'string') return { status: 500, body: { error: 'Failed to create the database.' } }
        const lr = body.enable_logical_replication
        if (lr !== undefined && typeof lr !== 'boolean') return { status: 500, body: { error: 'Failed to create the database.' } }
        const record = await this.create(body.ref, lr === true)
        return { status: 201, body: this.view(record) }
      })
      .route('GET', /^\/api\/v1\/database\/([^/]+)\/?$/, (_req, [id]) => {
        const record = this.databases.get(id)
        return record ? { status: 200, body: this.view(record) } : { status: 400, body: { error: 'Database not found' } }
      })
      .route('GET', /^\/claim\/([^/]+)\/?$/, (_req, [id]) =>
        this.databases.has(id)
          ? { status: 200, body: { page: 'claim', id, note: 'Sign in and choose an organization to complete the transfer.' } }
          : { status: 404, body: { error: 'Database not found' } }
      )
  }

  get url(): string {
    return this.server.url
  }

  private async create(ref: string, logical: boolean): Promise<InstantRecord> {
    const now = new Date()
    const id = uuidv7(now.getTime())
    const suffix = alnum(8).toLowerCase()
    const database = `neondb_${suffix}`
    const role = `neondb_owner_${suffix}`
    const password = this.passwords === 'special' ? `npg_${alnum(8)}@:/%+&#${alnum(4)}` : `npg_${alnum(16)}`
    await this.pg.createRole(role, password)
    await this.pg.createDatabase(database, role)
    const host = `ep-${alnum(6).toLowerCase()}-${suffix}-pooler.${REGION}.localhost:${this.pg.port}`
    const record: InstantRecord = {
      id,
      status: 'UNCLAIMED',
      project_id: `${['silent', 'rapid', 'bold', 'calm'][now.getTime() % 4]}-${alnum(5).toLowerCase()}-${10000000 + (now.getTime() % 89999999)}`,
      connection_string: `postgresql://${role}:${encodeURIComponent(password)}@${host}/${database}?channel_binding=require&sslmode=require`,
      claim_url: `${this.url}/claim/${id}`,
      expires_at: new Date(now.getTime() + LIFETIME_MS).toISOString(),
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      enable_logical_replication: logical,
      ref,
      database,
      role,
      password
    }
    this.databases.set(id, record)
    return record
  }

  /** The Database object of the API document, exactly its fields, with the project id under the name `fieldNames` picks. */
  view(r: InstantRecord): Record<string, unknown> {
    const { id, status, project_id, connection_string, claim_url, expires_at, created_at, updated_at } = r
    const idField = this.fieldNames === 'live' ? 'neon_project_id' : 'svc_project_id'
    return { id, status, [idField]: project_id, connection_string, claim_url, expires_at, created_at, updated_at }
  }

  private touch(id: string, change: Partial<InstantRecord>): InstantRecord {
    const r = this.databases.get(id)
    if (!r) throw new Error(`no instant database ${id}`)
    Object.assign(r, change, { updated_at: new Date().toISOString() })
    return r
  }

  /** The claim page's transfer started. */
  startClaim(id: string): void {
    this.touch(id, { status: 'CLAIMING' })
  }

  /** The claim completed: status CLAIMED, expiry removed (`expires_at` null), connection string null (the API document). */
  claim(id: string): void {
    this.touch(id, { status: 'CLAIMED', connection_string: null, expires_at: null })
  }

  /** Moves the expiry into the past, as if 72 hours had passed. */
  expire(id: string): void {
    this.touch(id, { expires_at: new Date(Date.now() - 1000).toISOString() })
  }

  /** Forgets the database, as the service does some time after it lapses. */
  forget(id: string): void {
    this.databases.delete(id)
  }
}
