/**
 * One psql session over the seed's files: its variables, its `\if` blocks
 * and its includes, shared by the check pass (no database: values a `\gset`
 * will set are unknown, so blocks that depend on them are "maybe") and the
 * load (every value known). psql 17's rules (psql reference: meta-commands,
 * variables, conditionals; src/bin/psql/command.c): `\if` blocks belong to
 * one file and must close in it; variables live for the whole session.
 */
import { existsSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { listOf, ruleOf } from './commands.js'
import { insideWorkspace, outsideWorkspaceReason, workspaceRoot } from './workspace.js'
import type { MetaEvent, StatementEvent } from './scanner.js'
import { BOOLEAN_VARIABLES, CONNECTION_VARIABLES, RESULT_VARIABLES, checkVariables } from './variables.js'
import {
  type Lookup,
  UNKNOWN,
  parseBool,
  parseSlashCopy,
  readable,
  slashOptions,
  validVariableName,
  withoutSemicolons
} from './psqlslash.js'

/** A seed file: its path, the name errors show (relative to the working directory), and where an include pulled it in. */
export interface SeedSource {
  file: string
  shown: string
  /** standard_conforming_strings when the file starts (an earlier file may have changed it), for exact rescans. */
  startStandardConformingStrings?: boolean
  /** `a.sql:12` for a file that `\i` or `\ir` pulled in. */
  includedFrom?: string
}

/** `file:line[:column]`, with ` (included from a.sql:12)` for an included file. */
export const place = (src: SeedSource, line: number, column?: number): string =>
  `${src.shown}:${line}${column ? `:${column}` : ''}${src.includedFrom ? ` (included from ${src.includedFrom})` : ''}`

/** A meta-command the session will not run; `why` completes "psql meta-command …". */
export class MetaRefusal extends Error {
  constructor(readonly why: string) {
    super(why)
    this.name = 'MetaRefusal'
  }
}

/** What the loader does for a meta-command the session accepted. */
export type Directive =
  | { kind: 'none' }
  /** `\echo`, `\qecho`, `\warn`, and the note that `\timing`, `\pset`, `\x` were ignored. */
  | { kind: 'print'; text: string }
  /** `\copy … from`: `file` (absolute) is streamed as COPY FROM STDIN; without it, the lines that follow are the data. */
  | { kind: 'copy'; sql: string; file?: string }
  /** `\gset [prefix]`: variables from the one row the statement before returned. */
  | { kind: 'gset'; prefix: string }
  /** `\gexec`: each non-null cell the statement before returned, run as a statement. */
  | { kind: 'gexec' }
  /** A warning psql prints and goes on (an `\if` value that is not a boolean). */
  | { kind: 'warning'; text: string }

/** Whether statements run here: yes, no, or (check pass only) it depends on a value known at load time. */
export type Activity = 'yes' | 'no' | 'maybe'

/** psql's conditional states (conditional.h), plus `maybe` and `else-maybe` for the check pass. */
type Branch = 'true' | 'false' | 'ignored' | 'else-true' | 'else-false' | 'maybe' | 'else-maybe'

const ALTERNATIVE = 'Run it from `seed-command`, which runs after the SQL seed with the connection in the environment (psql works there).'

/** The session state that the check pass and the load each keep. */
export class PsqlSession {
  readonly variables = new Map<string, string>()
  /** Check pass: variables whose value only the load knows (set from a `\gset` value). */
  private readonly unknown = new Set<string>()
  private gsetSeen = false
  /** One stack of `\if` branches per open file, innermost file last. */
  private readonly branches: { state: Branch; line: number }[][] = []
  /**
   * Per open file: whether statements ran before and after each meta-command
   * that stood inside a statement's text (by its ordinal), until that
   * statement is read ({@link activeText}).
   */
  private readonly cutActivity: Map<number, [Activity, Activity]>[] = []
  /** Files being read, outermost first (for include cycles). */
  private readonly reading: SeedSource[] = []
  /** The file the last `\i`/`\ir` asked for: the walker reads it next. */
  include: SeedSource | null = null
  /** A `\q` ended the current file: the walker reads on after it. */
  quit = false
  private restrictKey: string | null = null
  /** psql's warning for the meta-command just run, if any. */
  private warning: string | undefined

  /**
   * @param checking true in the check pass (no database: `\gset` values unknown)
   * @param cwd where `\i` and `\copy` files are found, as psql finds them from the workspace
   * @param workspace the folder every file read must lie in, symlinks resolved (psql/workspace.ts)
   */
  constructor(
    readonly checking: boolean,
    readonly cwd = process.cwd(),
    readonly workspace = workspaceRoot(cwd)
  ) {
    // the load sets psql's own connection variables (startupVariables); the check pass has no connection yet
    if (checking) {
      for (const [name, value] of Object.entries(checkVariables())) this.variables.set(name, value)
      for (const name of [...CONNECTION_VARIABLES, ...RESULT_VARIABLES]) this.unknown.add(name)
      this.variables.delete('ENCODING')
    }
  }

  /** A variable's value: undefined when unset; {@link UNKNOWN} in the check pass for what a `\gset` may set. */
  readonly lookup: Lookup = (name) => {
    const v = this.variables.get(name)
    if (v !== undefined) return v
    return this.checking && (this.gsetSeen || this.unknown.has(name)) ? UNKNOWN : undefined
  }

  /** Whether statements and meta-commands here run. */
  get activity(): Activity {
    let maybe = false
    for (const stack of this.branches) {
      for (const b of stack) {
        if (b.state === 'false' || b.state === 'ignored' || b.state === 'else-false') return 'no'
        if (b.state === 'maybe' || b.state === 'else-maybe') maybe = true
      }
    }
    return maybe ? 'maybe' : 'yes'
  }

  /** A file starts (the walker calls it). */
  enterFile(src: SeedSource): void {
    this.reading.push(src)
    this.branches.push([])
    this.cutActivity.push(new Map())
  }

  /** A file ended. @returns the line of an `\if` left open in it, or undefined */
  leaveFile(): number | undefined {
    this.reading.pop()
    this.cutActivity.pop()
    const open = this.branches.pop()!
    return open.length ? open[0].line : undefined
  }

  /**
   * The value of an `\if`/`\elif` expression: true, false, or undefined when
   * it depends on a `\gset` value (check pass). A value that is not a boolean
   * (an unset variable stays `:name`) is false, with psql's warning
   * (command.c, is_true_boolean_expression; variables.c, ParseVariableBool).
   * @throws MetaRefusal
   */
  private condition(ev: MetaEvent): boolean | undefined {
    const o = slashOptions(ev.args, this.lookup)
    if (o.backtick) throw new MetaRefusal(`\\${ev.command} with a backtick expression runs a shell command on the runner. ${ALTERNATIVE}`)
    if (o.unknown) return undefined
    const expr = o.options.join(' ')
    const value = parseBool(expr)
    if (value === undefined) {
      this.warning = `unrecognized value "${readable(expr)}" for "\\${ev.command} expression": Boolean expected (psql takes it as false and goes on).`
      return false
    }
    return value
  }

  /** `\if`, `\elif`, `\else`, `\endif`, by psql's rules (command.c, exec_command_if and its kin). @throws MetaRefusal */
  private conditional(ev: MetaEvent): void {
    const stack = this.branches.at(-1)!
    const top = stack.at(-1)
    const refuse = (what: string): never => {
      throw new MetaRefusal(`\\${ev.command}: ${what} (as psql refuses it). Balance every \\if with \\endif in the same file.`)
    }
    if (ev.command === 'if') {
      if (this.activity === 'no') stack.push({ state: 'ignored', line: ev.line })
      else {
        const v = this.condition(ev)
        stack.push({ state: v === undefined ? 'maybe' : v ? 'true' : 'false', line: ev.line })
      }
      return
    }
    if (!top) refuse('no matching \\if')
    if (ev.command === 'endif') {
      stack.pop()
      return
    }
    if (top!.state.startsWith('else-')) refuse(`cannot occur after \\else`)
    if (ev.command === 'else') {
      top!.state = top!.state === 'false' ? 'else-true' : top!.state === 'maybe' ? 'else-maybe' : 'else-false'
      return
    }
    // elif
    if (top!.state === 'false') {
      const v = this.condition(ev)
      top!.state = v === undefined ? 'maybe' : v ? 'true' : 'false'
    } else if (top!.state === 'true') top!.state = 'ignored'
    else if (top!.state === 'maybe') this.condition(ev)
  }

  /**
   * Acts on one meta-command as psql would, as far as the session goes; the
   * rest (output, COPY, queries) is the returned {@link Directive}.
   * @throws MetaRefusal for what the loader does not run, and for psql's own errors
   */
  meta(src: SeedSource, ev: MetaEvent): Directive {
    if (!ev.inStatement) return this.run(src, ev)
    const before = this.activity
    const directive = this.run(src, ev)
    this.cutActivity.at(-1)!.set(ev.index, [before, this.activity])
    return directive
  }

  /**
   * A statement's text as psql sends it: without what an inactive `\if`
   * branch added to it (command.c: `\elif`, `\else` and `\endif` discard
   * the query text a skipped branch added; mainloop.c resets the buffer at a
   * `;` in one). Text whose branch the check pass cannot decide stays.
   * @returns `ev.raw` itself when nothing is dropped
   */
  activeText(ev: StatementEvent): Buffer {
    if (!ev.cuts) return ev.raw
    const log = this.cutActivity.at(-1)!
    const parts: Buffer[] = []
    let start = 0
    let dropped = false
    ev.cuts.forEach((cut, k) => {
      const [before, after] = log.get(cut.meta) ?? ['yes', 'yes']
      log.delete(cut.meta)
      if (before === 'no') dropped = true
      else parts.push(ev.raw.subarray(start, cut.offset))
      start = cut.offset
      if (k === ev.cuts!.length - 1) {
        if (after === 'no') dropped = true
        else parts.push(ev.raw.subarray(start))
      }
    })
    return dropped ? Buffer.concat(parts) : ev.raw
  }

  private run(src: SeedSource, ev: MetaEvent): Directive {
    const c = ev.command
    if (c === 'if' || c === 'elif' || c === 'else' || c === 'endif') {
      this.warning = undefined
      this.conditional(ev)
      return this.warning && !this.checking ? { kind: 'warning', text: `\\${c}: ${this.warning}` } : { kind: 'none' }
    }
    const activity = this.activity
    if (activity === 'no') return { kind: 'none' }
    const rule = ruleOf(c)
    if (rule?.treatment === 'refused') throw new MetaRefusal(`psql meta-command \\${c} is not supported: it ${rule.note}. ${ALTERNATIVE}`)
    if (c === 'q' || c === 'quit') {
      // psql: \q in a script ends that script (mainloop.c, PSQL_CMD_TERMINATE); an open \if there is not an error.
      // In a block the check pass cannot decide, only the load knows whether it ends the file.
      if (activity === 'maybe') return { kind: 'none' }
      this.quit = true
      this.branches.at(-1)!.length = 0
      return { kind: 'none' }
    }
    if (c === 'restrict' || c === 'unrestrict') {
      if (c === 'restrict') this.restrictKey = ev.args
      else if (ev.args !== this.restrictKey)
        throw new MetaRefusal('\\unrestrict key does not match the \\restrict key (as psql would refuse it).')
      else this.restrictKey = null
      return { kind: 'none' }
    }
    if (rule?.treatment === 'ignored')
      return {
        kind: 'print',
        text: `Ignored \\${c}${ev.args ? ` ${readable(ev.args)}` : ''}: it only changes how psql shows results, and a seed shows none.`
      }
    if (c === 'copy') return this.copy(ev, activity)
    const o = slashOptions(ev.args, this.lookup)
    if (o.backtick)
      throw new MetaRefusal(`psql meta-command \\${c} with a backtick argument runs a shell command on the runner. ${ALTERNATIVE}`)
    switch (c) {
      case 'echo':
      case 'qecho':
      case 'warn': {
        const words = o.options[0] === '-n' ? o.options.slice(1) : o.options
        return { kind: 'print', text: readable(words.join(' ')) }
      }
      case 'set':
        // in a block the check pass cannot decide, the value afterwards is only known when the seed runs
        return this.set(o.options, o.unknown || activity === 'maybe')
      case 'unset':
        if (o.options[0] === 'ON_ERROR_STOP') throw new MetaRefusal(ON_ERROR_STOP_OFF)
        // a boolean's hook makes \unset NAME `off` (variables.c, bool_substitute_hook)
        if (o.options[0] !== undefined && BOOLEAN_VARIABLES.has(o.options[0])) this.variables.set(o.options[0], 'off')
        else if (o.options[0] !== undefined) this.variables.delete(o.options[0])
        if (o.options[0] !== undefined && activity === 'maybe') this.unknown.add(o.options[0])
        return { kind: 'none' }
      case 'i':
      case 'include':
      case 'ir':
      case 'include_relative':
        return this.includeFile(src, ev, o.options.length ? withoutSemicolons(o, 0) : undefined, o.unknown, activity)
      case 'g':
      case 'gx':
        if (o.options.length)
          throw new MetaRefusal(
            `psql meta-command \\${c} with an argument sends query output to a file or a command on the runner. ${ALTERNATIVE}`
          )
        return { kind: 'none' }
      case 'gset':
        this.gsetSeen = true
        return { kind: 'gset', prefix: o.options[0] ?? '' }
      case 'gexec':
        return { kind: 'gexec' }
    }
    throw new MetaRefusal(
      `psql meta-command \\${c} is not supported: the loader runs ${listOf('runs')}, and ignores ${listOf('ignored')}. ${ALTERNATIVE}`
    )
  }

  private set(options: string[], unknown: boolean): Directive {
    const [name, ...values] = options
    if (name === undefined) return { kind: 'none' } // psql lists the variables
    if (!validVariableName(name))
      throw new MetaRefusal(`\\set: invalid variable name: "${readable(name)}" (psql's error; it stops the seed).`)
    // a boolean's hook makes \set NAME with no value `on` (variables.c, bool_substitute_hook)
    const value = values.length === 0 && BOOLEAN_VARIABLES.has(name) ? 'on' : values.join('')
    if (name === 'ON_ERROR_STOP' && parseBool(value) === false) throw new MetaRefusal(ON_ERROR_STOP_OFF)
    if (unknown) {
      this.variables.delete(name)
      this.unknown.add(name)
      return { kind: 'none' }
    }
    if (name === 'ON_ERROR_STOP') {
      const on = parseBool(value)
      if (on === undefined)
        throw new MetaRefusal(
          `\\set: unrecognized value "${value}" for "ON_ERROR_STOP": Boolean expected (psql's error; it stops the seed).`
        )
      if (!on) throw new MetaRefusal(ON_ERROR_STOP_OFF)
    }
    this.unknown.delete(name)
    this.variables.set(name, value)
    return { kind: 'none' }
  }

  private includeFile(src: SeedSource, ev: MetaEvent, name: string | undefined, unknown: boolean, activity: Activity): Directive {
    if (name === undefined) throw new MetaRefusal(`\\${ev.command}: missing required argument (psql's error; it stops the seed).`)
    if (unknown) return { kind: 'none' } // the check pass cannot know the name; the load reads it
    const relative = ev.command === 'ir' || ev.command === 'include_relative'
    const file = path.resolve(relative ? path.dirname(src.file) : this.cwd, expandTilde(readable(name)))
    if (!insideWorkspace(file, this.workspace))
      throw new MetaRefusal(`\\${ev.command} ${outsideWorkspaceReason(readable(name), this.workspace)}`)
    if (!existsSync(file) || !statSync(file).isFile()) {
      // in a block that may not run, only the load knows whether psql would read it
      if (activity === 'maybe') return { kind: 'none' }
      throw new MetaRefusal(
        `\\${ev.command} ${readable(name)}: no such file (${file}; \\i is relative to the working directory, \\ir to the including file). Add it to the repository, or fix the name.`
      )
    }
    const cycle = this.reading.findIndex((s) => s.file === file)
    if (cycle >= 0) {
      const chain = [...this.reading.slice(cycle).map((s) => s.shown), path.relative(this.cwd, file) || file].join(' → ')
      throw new MetaRefusal(
        `include cycle: ${chain}. psql would read these files again and again until it runs out of file handles. Remove the include that closes the loop.`
      )
    }
    this.include = { file, shown: path.relative(this.cwd, file) || file, includedFrom: place(src, ev.line) }
    return { kind: 'none' }
  }

  private copy(ev: MetaEvent, activity: Activity): Directive {
    const copy = parseSlashCopy(ev.args)
    if (!copy) throw new MetaRefusal(`\\copy: parse error at "${readable(ev.args)}" (psql's error: \\copy needs "from" or "to").`)
    if (copy.direction === 'to')
      throw new MetaRefusal(
        `psql meta-command \\copy … to is not supported: it writes to the runner, and a seed writes nothing there. ${ALTERNATIVE}`
      )
    if (copy.target === 'program')
      throw new MetaRefusal(
        `psql meta-command \\copy … from program is not supported: it runs a shell command on the runner. ${ALTERNATIVE}`
      )
    if (copy.target === 'stdin' || copy.target === 'pstdin') return { kind: 'copy', sql: copy.sql }
    if (copy.target !== 'file')
      throw new MetaRefusal(`\\copy … from ${copy.target}: psql reads nothing from ${copy.target}. Use stdin, or a file.`)
    const file = path.resolve(this.cwd, expandTilde(readable(copy.file!)))
    if (!insideWorkspace(file, this.workspace))
      throw new MetaRefusal(`\\copy … from ${outsideWorkspaceReason(`'${readable(copy.file!)}'`, this.workspace)}`)
    if (activity === 'yes' && (!existsSync(file) || !statSync(file).isFile())) {
      throw new MetaRefusal(
        `\\copy … from '${readable(copy.file!)}': no such file (${file}; relative to the working directory, as psql reads it). Add it to the repository, or fix the name.`
      )
    }
    return { kind: 'copy', sql: copy.sql, file }
  }
}

const ON_ERROR_STOP_OFF =
  'ON_ERROR_STOP is always on: the seed runs in one transaction and stops at its first error, so nothing is half loaded. ' +
  'Remove `\\set ON_ERROR_STOP off` (or `\\unset ON_ERROR_STOP`); to go on past errors, run psql from `seed-command`.'

/** psql's expand_tilde: a leading `~/` is the home directory. */
const expandTilde = (name: string): string => (name === '~' || name.startsWith('~/') ? path.join(os.homedir(), name.slice(1)) : name)
