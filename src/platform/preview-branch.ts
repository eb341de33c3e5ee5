/**
 * Which branch is the PR's (Neon API spec, listProjectBranches with
 * `search`): its default name, the unseeded name (`<name>~seeding`) it has
 * until its seed completes, the lookup under both names, and the parent it
 * is made from. Refusals are {@link BranchRefusedError}s.
 */
import { createHash } from 'node:crypto'
import type { NeonClient } from './client.js'
import type { Branch } from './shapes.js'
import type { RunSource } from '../run-source.js'

/** A request the action refuses to make, with what to change. */
export class BranchRefusedError extends Error {}

/** `s` with characters other than letters, digits, `.`, `_` and `-` made `-`, no runs of `-`, none at either end. */
function clean(s: string): string {
  return s
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '')
}

/**
 * `preview/pr-<number>-<head ref>` in a PR; outside one, by what owns the
 * preview (run-source.ts): `preview/<git branch>` for a push or
 * `workflow_dispatch` on a branch (and its `delete` event), `preview/queue-<short sha>-<job key>`
 * for a merge group's job, else `preview/<short sha>`. Characters other than letters,
 * digits, `.`, `_` and `-` become `-`, at most 256 characters, then
 * `-<preview name>` for one of several previews of the PR (`preview-name`).
 * A git branch whose name that changes (`feature/x`, which would meet `feature-x`; a name of
 * non-ASCII letters only, which becomes `branch`), or that starts like a PR's or a merge group's preview
 * (`pr-<n>`, `queue-`), gets `-<8 hex digits>` of its exact name's SHA-256 after it, so two git branches, or a
 * git branch and a PR, never share a preview.
 */
export function defaultBranchName(
  pr: { number: number; headRef: string } | null,
  sha: string,
  previewName = '',
  source?: RunSource
): string {
  const suffix = previewName ? `-${previewName}` : ''
  const short = (s: string): string => clean(s).slice(0, 7) || 'local'
  const name = pr
    ? `preview/pr-${pr.number}${pr.headRef ? `-${clean(pr.headRef)}` : ''}`
    : source?.kind === 'git-branch' && source.branch
      ? gitBranchName(source.branch, 256 - suffix.length)
      : source?.kind === 'merge-group'
        ? `preview/queue-${short(source.headSha || sha)}${source.job ? `-${clean(source.job)}` : ''}`
        : `preview/${short(sha)}`
  return name.slice(0, 256 - suffix.length) + suffix
}

/**
 * `preview/<git branch>` within `max` characters, the name cleaned (see {@link defaultBranchName}); when
 * cleaning or the cut changed it, `-<first 8 hex digits of SHA-256 of the exact name>` ends it.
 */
function gitBranchName(branch: string, max: number): string {
  const base = `preview/${clean(branch) || 'branch'}`
  // `pr-<n>…` and `queue-…` are the names of a PR's and a merge group's previews
  if (base === `preview/${branch}` && base.length <= max && !/^(pr-\d|queue-)/.test(branch)) return base
  const tag = `-${createHash('sha256').update(branch).digest('hex').slice(0, 8)}`
  return base.slice(0, max - tag.length) + tag
}

/**
 * Refuses to `what` (delete, reset, …) the project's default or a protected branch.
 * @param input the input that named the branch, which the message says to change
 * @throws BranchRefusedError
 */
export function refuseProtected(branch: Branch, what: string, input: 'branch-name' | 'branch-id' = 'branch-name'): void {
  if (branch.default || branch.protected) {
    throw new BranchRefusedError(
      `Refusing to ${what} branch "${branch.name}" (${branch.id}): it is the project's ${branch.default ? 'default' : 'protected'} branch. ` +
        `Set \`${input}\` to a preview branch${input === 'branch-id' ? "'s id" : ' name'}.`
    )
  }
}

/** Resolves `parent-branch` (an id or a name, looked up with `search`) or the project's default branch. */
export async function resolveParent(client: NeonClient, parentBranch: string): Promise<Branch> {
  if (parentBranch) {
    const parent = await client.findBranch((b) => b.id === parentBranch || b.name === parentBranch, parentBranch)
    if (!parent)
      throw new BranchRefusedError(
        `Parent branch "${parentBranch}" was not found in the project (input \`parent-branch\`, an id or a name).`
      )
    return parent
  }
  const parent = await client.findBranch((b) => !!b.default)
  if (!parent) throw noDefaultBranch()
  return parent
}

const noDefaultBranch = (): BranchRefusedError => new BranchRefusedError('The project has no default branch; set `parent-branch`.')

/** Marks a branch whose seed has not completed (see the module comment). */
export const UNSEEDED_SUFFIX = '~seeding'

/**
 * The unseeded name of the branch `name` until its seed completes:
 * `<name>~seeding`, the name cut so the whole stays within the spec's 256 characters.
 */
export function unseededName(name: string): string {
  return name.slice(0, 256 - UNSEEDED_SUFFIX.length) + UNSEEDED_SUFFIX
}

/** The PR's branch as the project has it: `seeded` under its name, `unseeded` under `<name>~seeding`. */
export interface FoundBranches {
  seeded: Branch | null
  unseeded: Branch | null
}

/**
 * Looks the PR's branch up under both names with one search (`search=` the
 * part both names share), following the cursor through every page.
 */
export async function findPreviewBranches(client: NeonClient, name: string): Promise<FoundBranches> {
  const { found, match } = previewMatcher(name)
  await client.findBranch(match, name.slice(0, 256 - UNSEEDED_SUFFIX.length))
  return found
}

/** What {@link findPreviewBranches} fills, and the test it passes each listed branch to (true once both names were seen). */
function previewMatcher(name: string): { found: FoundBranches; match: (b: Branch) => boolean } {
  const unseeded = unseededName(name)
  const found: FoundBranches = { seeded: null, unseeded: null }
  const match = (b: Branch): boolean => {
    if (b.name === name) found.seeded = b
    if (b.name === unseeded) found.unseeded = b
    return !!found.seeded && !!found.unseeded
  }
  return { found, match }
}

/**
 * {@link findPreviewBranches} and {@link resolveParent} together, with one request where the
 * project allows: without `parent-branch`, the first page of List branches (oldest first, at
 * most 100 a page) holds the default branch, and when it is the only page it holds every
 * branch, so the lookup by name needs no request of its own (twenty or forty runs started
 * together send one `GET …/branches` each, not two in the same half second). A named parent,
 * more branches than a page, or a default branch beyond the first page: the two lookups as before.
 * @throws BranchRefusedError as {@link resolveParent} does; HttpError.
 */
export async function findPreviewAndParent(
  client: NeonClient,
  name: string,
  parentBranch: string
): Promise<{ found: FoundBranches; parent: Branch }> {
  if (parentBranch) return { found: await findPreviewBranches(client, name), parent: await resolveParent(client, parentBranch) }
  const first = await client.listBranchesPage()
  let parent = first.branches.find((b) => !!b.default)
  if (!parent && first.next) parent = await resolveParent(client, '')
  if (!parent) throw noDefaultBranch()
  if (first.next) return { found: await findPreviewBranches(client, name), parent }
  const { found, match } = previewMatcher(name)
  first.branches.forEach(match)
  return { found, parent }
}
