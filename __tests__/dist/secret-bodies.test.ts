/**
 * No service body is quoted when it may hold a secret, through the bundled
 * action: a 2xx answer that is not JSON (for `GET …/connection_uri` that body
 * is the connection string) names the route and the status only; an error
 * body is quoted with every secret the run knows (the API key, the
 * connection strings) replaced by `***`.
 */
import { describe, expect, it } from '@jest/globals'
import { branchSuite } from '../fixtures/branch-suite.js'
import { leakForms, leaks, publicText } from '../helpers.js'

const suite = branchSuite({ prefix: 'secret-bodies-test-', firstPr: 4300, projectPerTest: true })

describe('a service answer is never quoted with a secret', () => {
  it('a 2xx connection_uri answer that is not JSON names the route and status, and never quotes the connection string', async () => {
    const pr = suite.newPr()
    const first = await suite.run({}, { pr: { number: pr } })
    expect(first.code).toBe(0)
    const uri = first.outputs['database-url-direct']
    expect(uri).toContain(suite.project.password)
    suite.emu.platform.server.inject({ method: 'GET', path: /\/connection_uri\/?$/, kind: 'text', text: `${uri}\n`, times: 10 })
    const r = await suite.run({}, { pr: { number: pr } })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(/returned HTTP 200 with a body that is not JSON \(GET http:\/\/127\.0\.0\.1:\d+\/[^)]*connection_uri\)/)
    expect(leaks(publicText(suite.emu, r), [uri, suite.project.password, suite.project.apiKey].flatMap(leakForms))).toEqual([])
  })

  it("an error body that echoes the API key is quoted with the key replaced by ***", async () => {
    const pr = suite.newPr()
    const key = suite.project.apiKey
    suite.emu.platform.server.inject({
      method: 'POST',
      path: /\/branches\/?$/,
      kind: 'status',
      status: 400,
      body: { code: 'bad', message: `token ${key} may not create branches here (${encodeURIComponent(key)})` }
    })
    const r = await suite.run({}, { pr: { number: pr } })
    expect(r.code).toBe(1)
    expect(r.errors.join('\n')).toMatch(/HTTP 400: "token \*\*\* may not create branches here/)
    expect(leaks(publicText(suite.emu, r), leakForms(key))).toEqual([])
  })
})
