/**
 * The workspace rule for the files a seed reads: `seed` files, `\i`, `\ir`,
 * `\include`, `\include_relative` and `\copy … from`. docs/seeding.md promises
 * "a file of the repository": a database's claim URL is public, so a runner
 * file (a credential, another job's output) must never land in it.
 */
import { realpathSync } from 'node:fs'
import path from 'node:path'

/** The job's workspace (`GITHUB_WORKSPACE`; `fallback` outside a runner), its symlinks resolved. */
export function workspaceRoot(fallback = process.cwd()): string {
  const root = process.env.GITHUB_WORKSPACE || fallback
  try {
    return realpathSync(root)
  } catch {
    return path.resolve(root)
  }
}

/**
 * Whether the absolute path `file` lies inside `root` (a {@link workspaceRoot}).
 * An existing file is judged by its real path (every symlink on the way
 * resolved); a missing one by its real parent folder, or else by its path as
 * written (`..` resolved), so a link pointing out is caught either way.
 */
export function insideWorkspace(file: string, root: string): boolean {
  const real = realPath(file)
  const rel = path.relative(root, real)
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel))
}

/** `file` with its symlinks resolved, as far as the path exists. */
function realPath(file: string): string {
  const resolved = path.resolve(file)
  try {
    return realpathSync(resolved)
  } catch {
    const parent = path.dirname(resolved)
    return parent === resolved ? resolved : path.join(realPath(parent), path.basename(resolved))
  }
}

/** The refusal's text for `file` (as the seed wrote it) outside `root`. */
export function outsideWorkspaceReason(shown: string, root: string): string {
  return `${shown} is outside the workspace (${root}), or a symlink that points out of it: a seed reads only files of the repository, since the database's claim URL is public. Move the file into the repository.`
}
