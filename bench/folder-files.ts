/**
 * The seed files a benchmark is given on the command line: a file as it is;
 * a folder as its `LOAD` file lists them (one per line, `#` comments), else
 * its `*.sql` sorted (the corpus's convention, shared/README).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

/** @returns absolute paths, in load order. @throws the fs error when `arg` does not exist */
export function folderFiles(arg: string): string[] {
  if (!statSync(arg).isDirectory()) return [path.resolve(arg)]
  const load = path.join(arg, 'LOAD')
  const names = existsSync(load)
    ? readFileSync(load, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'))
    : readdirSync(arg)
        .filter((f) => f.endsWith('.sql'))
        .sort()
  return names.map((f) => path.resolve(arg, f))
}
