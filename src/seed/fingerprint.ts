/**
 * The seed's fingerprint: what a reused database was seeded from, recorded
 * in the PR comment's marker, so a run can tell that the seed changed and
 * rebuild (`reseed: on-change`).
 *
 * It is a sha256 over, in this order:
 * - the bytes of every seed file, in load order: the files resolved from
 *   `seed`, then the files the seed's check pass found it reads besides
 *   (`\i`/`\ir` includes and `\copy … from` files, in the order met, each
 *   once). A file whose name depends on a `\gset` value is not known before
 *   the load, so it is not part of it;
 * - the `seed-command` text;
 * - `schema-only`;
 * - the masking rules (their fields in a fixed order).
 * Every part is framed by its kind and length, so no two different inputs
 * hash the same bytes. File names are not part of it: moving or renaming a
 * file without changing its bytes or order does not rebuild.
 *
 * A new or rebuilt database runs the seed files, then `migrate-command`, then
 * `seed-command` (schema before data). `migrate-command` is not part of the
 * fingerprint: it runs on every push, so a reused database gets the PR's new
 * migrations without a rebuild; a rebuild (a changed seed file or
 * `seed-command`) runs the migrations again before `seed-command`.
 */
import { createHash, type Hash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import type { MaskingRuleInput } from '../settings.js'

/** What the seed of a database is made of. */
export interface SeedInputs {
  /** Absolute paths in load order (top-level files first, then the files they read); a path given twice counts once. */
  files: string[]
  seedCommand: string
  schemaOnly: boolean
  maskingRules: MaskingRuleInput[]
}

/** The fingerprint's format: `sha256:` and 64 lowercase hex digits. */
export const FINGERPRINT = /^sha256:[0-9a-f]{64}$/

/** Adds one framed part: its kind, its length in bytes, its bytes. */
function part(hash: Hash, kind: string, bytes: Buffer | string): void {
  const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes
  hash.update(`${kind}\0${data.length}\0`)
  hash.update(data)
}

/** Adds a file's bytes, streamed (a seed may be a dump of hundreds of MB), framed like {@link part}. */
async function filePart(hash: Hash, file: string): Promise<void> {
  // The frame's length comes first, so the bytes go through a hash of their own, and that is framed.
  const inner = createHash('sha256')
  let length = 0
  try {
    for await (const chunk of createReadStream(file)) {
      inner.update(chunk as Buffer)
      length += (chunk as Buffer).length
    }
  } catch (err) {
    // a `\copy` file in an `\if` branch that does not run may not exist; what is not there is part of the seed too
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    return part(hash, 'no-file', '')
  }
  part(hash, 'file', Buffer.concat([Buffer.from(`${length}\0`), inner.digest()]))
}

/** A masking rule's fields in one fixed order (the input's key order does not matter). */
const ruleText = (r: MaskingRuleInput): string =>
  JSON.stringify([r.database ?? null, r.schema, r.table, r.column, r.function ?? null, r.value ?? null])

/**
 * The fingerprint of `inputs`.
 * @returns `sha256:<64 hex digits>` ({@link FINGERPRINT})
 * @throws Error when a file cannot be read (EACCES, EISDIR; a missing file counts as one with no bytes, framed apart)
 */
export async function seedFingerprint(inputs: SeedInputs): Promise<string> {
  const hash = createHash('sha256')
  hash.update('preview-postgres seed fingerprint 1\0')
  for (const file of [...new Set(inputs.files)]) await filePart(hash, file)
  part(hash, 'seed-command', inputs.seedCommand)
  part(hash, 'schema-only', String(inputs.schemaOnly))
  for (const rule of inputs.maskingRules) part(hash, 'masking-rule', ruleText(rule))
  return `sha256:${hash.digest('hex')}`
}
