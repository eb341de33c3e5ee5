/**
 * emulator/runner/workflow-expr.ts: the GitHub Actions expression subset the docs'
 * workflows use, evaluated as GitHub does (GitHub docs, "Evaluate
 * expressions in workflows and actions"): case-insensitive string equality,
 * `&&`/`||` yielding operands, `if:` with an implied `success() &&`, and a
 * refusal of anything outside the subset.
 */
import { describe, expect, it } from '@jest/globals'
import { type ExprContext, condition, evaluateExpression, interpolate } from '../../emulator/runner/workflow-expr.js'

const ctx = (failed = false): ExprContext => ({
  contexts: {
    github: {
      event_name: 'pull_request',
      repository: 'acme/shop',
      event: { action: 'closed', pull_request: { number: 12, head: { repo: { full_name: 'forker/shop' } } } }
    },
    steps: { db: { outputs: { 'report-file': '/tmp/r.json', 'database-url': '' }, outcome: 'failure' } },
    matrix: { preview: 'api' }
  },
  failed
})

describe('workflow expressions', () => {
  it('reads contexts by path, with hyphens in names, and missing paths as null', () => {
    expect(evaluateExpression('github.event.pull_request.number', ctx())).toBe(12)
    expect(evaluateExpression('steps.db.outputs.report-file', ctx())).toBe('/tmp/r.json')
    expect(evaluateExpression("github.event['action']", ctx())).toBe('closed')
    expect(evaluateExpression('github.event.nothing.here', ctx())).toBeUndefined()
    expect(interpolate('group-${{ github.event.pull_request.number }}-${{ matrix.preview }}', ctx())).toBe('group-12-api')
  })

  it('compares strings case-insensitively and yields operands from && and ||', () => {
    expect(evaluateExpression("github.event.action == 'CLOSED'", ctx())).toBe(true)
    expect(evaluateExpression('github.event.pull_request.head.repo.full_name != github.repository', ctx())).toBe(true)
    expect(evaluateExpression("steps.db.outputs.database-url || 'none'", ctx())).toBe('none')
    expect(evaluateExpression("github.event.action == 'closed' && 'yes'", ctx())).toBe('yes')
    expect(evaluateExpression("!(github.event.action != 'closed')", ctx())).toBe(true)
    expect(evaluateExpression("contains('a,b', 'B') && startsWith('preview/pr-1', 'preview/')", ctx())).toBe(true)
    expect(evaluateExpression("format('{0}-{1}', 'pr', 12)", ctx())).toBe('pr-12')
  })

  it('if: holds only while no step failed, unless a status function says otherwise', () => {
    expect(condition(undefined, ctx())).toBe(true)
    expect(condition(undefined, ctx(true))).toBe(false)
    expect(condition("github.event.action == 'closed'", ctx(true))).toBe(false)
    expect(condition("${{ always() && steps.db.outputs.report-file != '' }}", ctx(true))).toBe(true)
    expect(condition('failure()', ctx(true))).toBe(true)
    expect(condition("steps.db.outcome == 'success'", ctx())).toBe(false)
  })

  it('refuses what the subset does not evaluate, naming it', () => {
    expect(() => evaluateExpression("hashFiles('**/package-lock.json')", ctx())).toThrow(/hashFiles\(\) is not in the subset/)
    expect(() => evaluateExpression('needs.build.outputs.x', ctx())).toThrow(/context needs is not available/)
    expect(() => evaluateExpression('github.event.action ==', ctx())).toThrow(/expected more/)
  })
})
