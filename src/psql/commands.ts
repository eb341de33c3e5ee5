/**
 * The psql meta-commands a seed may hold, and what the loader does with
 * each: runs it as psql runs it, ignores it (it only changes how psql shows
 * results, and a seed shows none), or refuses it before any database exists
 * (it reaches outside the database). One table: the session's rules
 * (session.ts) and README's list (scripts/docs.ts) are both read from it.
 */

/** What the loader does with a meta-command. */
export type Treatment = 'runs' | 'ignored' | 'refused'

/** One row of {@link META_COMMANDS}. */
export interface MetaCommandRule {
  /** Its names, without the backslash (psql's spelling; `\copy` is matched in any letter case, as psql matches it). */
  names: string[]
  treatment: Treatment
  /** What it does in a seed; for a refused one, why (completes "it …"). */
  note: string
}

/** Every meta-command the loader knows, in README's order. */
export const META_COMMANDS: MetaCommandRule[] = [
  { names: ['echo', 'qecho', 'warn'], treatment: 'runs', note: 'prints its text in the log' },
  {
    names: ['set', 'unset'],
    treatment: 'runs',
    note: 'sets or removes a variable; `\\set NAME` alone sets it empty (`on` for a boolean such as ON_ERROR_STOP); ON_ERROR_STOP stays on'
  },
  {
    names: ['i', 'include', 'ir', 'include_relative'],
    treatment: 'runs',
    note: 'reads a file of the workspace where it stands; a path out of it (absolute, `..`, a symlink) is refused before any database exists'
  },
  {
    names: ['copy'],
    treatment: 'runs',
    note: '`\\copy … from` a file of the workspace (a path out of it is refused before any database exists), or from the lines that follow (up to `\\.` or the end of the file)'
  },
  {
    names: ['if', 'elif', 'else', 'endif'],
    treatment: 'runs',
    note: "conditional blocks, also inside a statement's text; a value that is not a boolean (an unset variable) is false, with a warning"
  },
  { names: ['g', 'gx'], treatment: 'runs', note: 'sends the statement (without an argument)' },
  { names: ['gset'], treatment: 'runs', note: "sets variables from the statement's one row" },
  { names: ['gexec'], treatment: 'runs', note: "runs each value of the statement's result as a statement" },
  { names: ['restrict', 'unrestrict'], treatment: 'runs', note: "pg_dump's guard: the keys must match" },
  { names: ['q', 'quit'], treatment: 'runs', note: 'ends the file it stands in' },
  {
    names: ['timing', 'pset', 'x', 't', 'a', 'f', 'C', 'H', 'T'],
    treatment: 'ignored',
    note: 'changes only how psql shows results'
  },
  { names: ['c', 'connect'], treatment: 'refused', note: 'connects to another database; the seed runs in the database the action made' },
  { names: ['!'], treatment: 'refused', note: 'runs a shell command on the runner' },
  { names: ['setenv'], treatment: 'refused', note: 'sets an environment variable on the runner' },
  { names: ['o', 'out'], treatment: 'refused', note: 'writes query output to a file on the runner' },
  { names: ['w', 'write'], treatment: 'refused', note: 'writes the query buffer to a file on the runner' },
  {
    names: ['lo_import', 'lo_export', 'lo_list', 'lo_unlink'],
    treatment: 'refused',
    note: 'moves a large object between a file on the runner and the server'
  }
]

const byName = new Map(META_COMMANDS.flatMap((rule) => rule.names.map((name) => [name, rule] as const)))

/** The rule for a meta-command's name (`\copy` in any letter case), or undefined for one the loader does not know. */
export function ruleOf(name: string): MetaCommandRule | undefined {
  return byName.get(name) ?? (name.startsWith('lo_') ? byName.get('lo_import') : undefined)
}

/** The names of one treatment, as `\a, \b and \c` (for messages). */
export function listOf(treatment: Treatment): string {
  const names = META_COMMANDS.filter((r) => r.treatment === treatment).flatMap((r) => r.names.map((n) => `\\${n}`))
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}
