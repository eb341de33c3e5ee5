/**
 * Resolving the `seed` input to files, before anything is provisioned.
 */
import * as glob from '@actions/glob'
import { InputError } from '../settings.js'
import { insideWorkspace, outsideWorkspaceReason, workspaceRoot } from '../psql/workspace.js'

/**
 * Expands each line of `seed` with `@actions/glob`: matches of one line are
 * sorted, lines keep their given order, a file named twice runs once (at its
 * first place). Every file must lie in the workspace, symlinks resolved
 * (psql/workspace.ts).
 * @returns absolute paths.
 * @throws InputError naming the first line that matches no file, or a file outside the workspace.
 */
export async function resolveSeedFiles(patterns: string[]): Promise<string[]> {
  const root = workspaceRoot()
  const files: string[] = []
  for (const pattern of patterns) {
    const globber = await glob.create(pattern, { matchDirectories: false, implicitDescendants: false })
    const matches = (await globber.glob()).sort()
    if (matches.length === 0) {
      throw new InputError(`Input \`seed\`: "${pattern}" matches no file (paths are relative to ${process.cwd()}).`)
    }
    const outside = matches.find((file) => !insideWorkspace(file, root))
    if (outside) throw new InputError(`Input \`seed\`: "${pattern}" matches ${outsideWorkspaceReason(outside, root)}`)
    for (const file of matches) if (!files.includes(file)) files.push(file)
  }
  return files
}
