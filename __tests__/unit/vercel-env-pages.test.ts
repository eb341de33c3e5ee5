/**
 * The Vercel env list followed page by page (src/vercel/client.ts, allEnvs)
 * against the Vercel emulator: every page once, each variable once, and a
 * service that ignores `until` (the endpoint's reference names no such
 * parameter) read twice, not until the 50-page bound.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { VERCEL_TOKEN, VercelService, type EmulatedProject } from '../../emulator/vercel/vercel.js'
import { VercelClient } from '../../src/vercel/client.js'

const vercel = new VercelService()
let project: EmulatedProject
let client: VercelClient
const listed = () => vercel.server.requests('GET', /\/env$/)

beforeAll(async () => {
  await vercel.server.listen()
})
afterAll(async () => {
  await vercel.server.close()
})
beforeEach(() => {
  const team = vercel.addTeam(`team-${vercel.projects.length}`)
  project = vercel.addProject(`pages-${vercel.projects.length}`, { team })
  for (const [i, key] of ['A', 'B', 'C'].entries())
    project.envs.push({
      id: `env-${project.id}-${key}`,
      key,
      value: 'x',
      type: 'encrypted',
      target: ['preview'],
      createdAt: i + 1,
      updatedAt: i + 1
    })
  vercel.envPageSize = 1
  vercel.envListIgnoresUntil = false
  vercel.server.log.length = 0
  client = new VercelClient(
    { token: VERCEL_TOKEN, project: project.id, team: team.id, apiUrl: vercel.server.url },
    10_000,
    Date.now() + 60_000
  )
})

describe('allEnvs', () => {
  it('follows pagination.next as until: three pages of one variable, each variable once', async () => {
    const envs = await client.allEnvs(project.id)
    expect(envs.map((e) => e.key)).toEqual(['C', 'B', 'A'])
    expect(listed().map((q) => new URLSearchParams(q.query).get('until'))).toEqual([null, '3', '2'])
  })

  it('stops at a page with nothing new when the service ignores until: the first page once, two requests', async () => {
    vercel.envListIgnoresUntil = true
    const envs = await client.allEnvs(project.id)
    expect(envs.map((e) => e.key)).toEqual(['C'])
    expect(listed()).toHaveLength(2)
  })
})
