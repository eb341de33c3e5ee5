/**
 * GitHub Actions expressions (`${{ … }}`, `if:`), the subset the README's and
 * docs/' workflows use, evaluated as GitHub evaluates them (GitHub docs,
 * "Evaluate expressions in workflows and actions"): literals (`'text'`,
 * numbers, `true`, `false`, `null`), contexts read by dotted path
 * (`github.event.pull_request.number`, `steps.db.outputs.report-file`,
 * `secrets.NEON_API_KEY`, `vars.*`, `env.*`, `matrix.*`), `!`, `==`, `!=`,
 * `&&`, `||`, parentheses, and the functions `success()`, `failure()`,
 * `always()`, `cancelled()`, `contains()`, `startsWith()`, `endsWith()`,
 * `format()`. Strings compare case-insensitively, as GitHub does. Anything
 * else throws, so a workflow cannot silently run differently here than on
 * the runner.
 */

/** A value an expression yields. */
export type ExprValue = string | number | boolean | null | ExprObject | ExprValue[]
interface ExprObject {
  [key: string]: ExprValue | undefined
}

/** What an expression may read: the contexts by name, and the job's status so far. */
export interface ExprContext {
  contexts: Record<string, ExprValue | undefined>
  /** A step of the job has failed (for `success()` and `failure()`). */
  failed: boolean
}

const TOKEN = /\s*(?:('(?:[^']|'')*')|(-?\d+(?:\.\d+)?)|([A-Za-z_][\w-]*)|(==|!=|&&|\|\||[!().,[\]*]))/y

function tokenize(text: string): string[] {
  const tokens: string[] = []
  TOKEN.lastIndex = 0
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break
    const at = TOKEN.lastIndex
    const m = TOKEN.exec(text)
    if (!m) throw new Error(`cannot read the expression "${text}" at "${text.slice(at)}"`)
    tokens.push(m[1] ?? m[2] ?? m[3] ?? m[4])
  }
  return tokens
}

/** Truthiness as GitHub's: false, 0, '', null are false. */
export const truthy = (v: ExprValue | undefined): boolean => !(v === false || v === 0 || v === '' || v === null || v === undefined)

/** The text a value interpolates to (`${{ }}` in a string): null and undefined are ''. */
export function asText(v: ExprValue | undefined): string {
  if (v === null || v === undefined) return ''
  return typeof v === 'object' ? JSON.stringify(v) : String(v)
}

function equal(a: ExprValue | undefined, b: ExprValue | undefined): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase()
  if ((a ?? null) === null || (b ?? null) === null) return (a ?? null) === (b ?? null)
  if (typeof a === 'object' || typeof b === 'object') return a === b
  return Number(a) === Number(b)
}

/**
 * Evaluates one expression (the text inside `${{ }}`, or an `if:` without them).
 * @throws Error for syntax or a function this subset does not know
 */
export function evaluateExpression(text: string, ctx: ExprContext): ExprValue | undefined {
  const tokens = tokenize(text)
  let i = 0
  const peek = (): string | undefined => tokens[i]
  const take = (expected?: string): string => {
    const t = tokens[i++]
    if (t === undefined || (expected !== undefined && t !== expected))
      throw new Error(`expression "${text}": expected ${expected ?? 'more'}, got ${t ?? 'the end'}`)
    return t
  }
  const or = (): ExprValue | undefined => {
    let v = and()
    while (peek() === '||') {
      take()
      const r = and()
      v = truthy(v) ? v : r
    }
    return v
  }
  const and = (): ExprValue | undefined => {
    let v = comparison()
    while (peek() === '&&') {
      take()
      const r = comparison()
      v = truthy(v) ? r : v
    }
    return v
  }
  const comparison = (): ExprValue | undefined => {
    let v = unary()
    while (peek() === '==' || peek() === '!=') {
      const op = take()
      const r = unary()
      v = op === '==' ? equal(v, r) : !equal(v, r)
    }
    return v
  }
  const unary = (): ExprValue | undefined => {
    if (peek() === '!') {
      take()
      return !truthy(unary())
    }
    return primary()
  }
  const call = (name: string): ExprValue | undefined => {
    take('(')
    const args: (ExprValue | undefined)[] = []
    while (peek() !== ')') {
      args.push(or())
      if (peek() === ',') take()
    }
    take(')')
    const s = (k: number): string => asText(args[k]).toLowerCase()
    switch (name.toLowerCase()) {
      case 'success':
        return !ctx.failed
      case 'failure':
        return ctx.failed
      case 'always':
        return true
      case 'cancelled':
        return false
      case 'contains':
        return Array.isArray(args[0]) ? args[0].some((x) => equal(x, args[1])) : s(0).includes(s(1))
      case 'startswith':
        return s(0).startsWith(s(1))
      case 'endswith':
        return s(0).endsWith(s(1))
      case 'format':
        return asText(args[0]).replace(/\{(\d+)\}/g, (_, n: string) => asText(args[Number(n) + 1]))
      default:
        throw new Error(`expression "${text}": the function ${name}() is not in the subset evaluated here`)
    }
  }
  const primary = (): ExprValue | undefined => {
    const t = take()
    if (t === '(') {
      const v = or()
      take(')')
      return v
    }
    if (t.startsWith("'")) return t.slice(1, -1).replace(/''/g, "'")
    if (/^-?\d/.test(t)) return Number(t)
    if (t === 'true' || t === 'false') return t === 'true'
    if (t === 'null') return null
    if (peek() === '(') return call(t)
    if (!(t in ctx.contexts)) throw new Error(`expression "${text}": the context ${t} is not available here`)
    let v: ExprValue | undefined = ctx.contexts[t]
    while (peek() === '.' || peek() === '[') {
      let key: string
      if (take() === '.') key = take()
      else {
        key = asText(or())
        take(']')
      }
      v = v !== null && typeof v === 'object' && !Array.isArray(v) ? v[key] : undefined
    }
    return v
  }
  const value = or()
  if (i !== tokens.length) throw new Error(`expression "${text}": unexpected ${tokens[i]}`)
  return value
}

/** Replaces every `${{ … }}` in `text` with its value's text. */
export function interpolate(text: string, ctx: ExprContext): string {
  return text.replace(/\$\{\{\s*([\s\S]*?)\s*\}\}/g, (_, expression: string) => asText(evaluateExpression(expression, ctx)))
}

/**
 * An `if:` condition: with or without `${{ }}`; without a status function
 * (`success()`, `failure()`, `always()`, `cancelled()`) it holds only while
 * no step failed, as GitHub adds `success() &&`.
 */
export function condition(text: string | boolean | undefined, ctx: ExprContext): boolean {
  if (text === undefined) return !ctx.failed
  const raw = String(text).trim()
  const whole = /^\$\{\{([\s\S]*)\}\}$/.exec(raw)
  const expression = whole ? whole[1].trim() : raw
  const status = /\b(success|failure|always|cancelled)\s*\(/.test(expression)
  return (status || !ctx.failed) && truthy(evaluateExpression(expression, ctx))
}
