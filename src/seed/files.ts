/**
 * Resolving the `seed` input to files, before anything is provisioned.
 */
import * as glob from '@actions/glob'
import { InputError } from '../settings.js'

/**
 * Expands each line of `seed` with `@actions/glob`: matches of one line are
 * sorted, lines keep their given order, a file named twice runs once (at its
 * first place).
 * @returns absolute paths.
 * @throws InputError naming the first line that matches no file.
 */
export async function resolveSeedFiles(patterns: string[]): Promise<string[]> {
  const files: string[] = []
  for (const pattern of patterns) {
    const globber = await glob.create(pattern, { matchDirectories: false, implicitDescendants: false })
    const matches = (await globber.glob()).sort()
    if (matches.length === 0) {
      throw new InputError(`Input \`seed\`: "${pattern}" matches no file (paths are relative to ${process.cwd()}).`)
    }
    for (const file of matches) if (!files.includes(file)) files.push(file)
  }
  return files
}
