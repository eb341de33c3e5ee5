/**
 * The Vercel preview's row of the PR comment (src/vercel/report.ts): Vercel's
 * URL is linked only in its canonical http(s) form and its state is escaped,
 * so an answer cannot put a link, an image or a table cell into the comment;
 * and http.ts reads Vercel's nested error body (`{"error": {"code", "message"}}`).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { ServiceServer } from '../../emulator/http-kit.js'
import { HttpError, requestJson } from '../../src/http.js'
import { vercelRow } from '../../src/vercel/report.js'

describe('vercelRow', () => {
  it("links Vercel's URL in its canonical form, with the state in lower case", () => {
    expect(vercelRow({ url: 'https://shop-abc-acme.vercel.app', state: 'BUILDING', note: 'reads this database' })).toEqual([
      'Vercel preview',
      'https://shop-abc-acme.vercel.app/ (building): reads this database'
    ])
  })

  it('renders a hostile URL and state inert: no link, image, HTML or table cell', () => {
    const [, cell] = vercelRow({
      url: 'https://x.vercel.app/ [a](javascript:alert(1)) <img src=x>',
      state: '|![i](https://evil.example/i.png)',
      note: 'n'
    })
    // every `[`, `]`, `<` and `|` escaped (GitHub then renders them as text)
    expect(cell).not.toMatch(/(?<!\\)[[\]<|]/)
    expect(cell).toContain('\\<img src=x\\>')
    expect(cell).not.toContain('javascript:a') // the scheme broken, as markdownText breaks every one
  })

  it('a URL of a deployment host becomes https://<host>/; anything else is not linked', () => {
    expect(vercelRow({ url: 'shop-abc-acme.vercel.app', note: 'n' })[1]).toBe('https://shop-abc-acme.vercel.app/: n')
    expect(vercelRow({ url: 'javascript:alert(1)', note: 'n' })[1]).not.toContain('](')
  })

  it('without a deployment: the note alone', () => {
    expect(vercelRow({ note: 'no deployment of a1b2c3d yet' })).toEqual(['Vercel preview', 'no deployment of a1b2c3d yet'])
  })
})

describe("Vercel's error body", () => {
  const server = new ServiceServer('vercel-errors').route('GET', /^\/v9\/projects\/x$/, () => ({
    status: 403,
    body: { error: { code: 'forbidden', message: 'Not authorized' } }
  }))
  beforeAll(async () => void (await server.listen()))
  afterAll(async () => await server.close())

  it("is quoted by its message, with Vercel's lower-case code", async () => {
    const err = await requestJson({
      label: 'Vercel: read the project',
      method: 'GET',
      url: `${server.url}/v9/projects/x`,
      timeoutMs: 5000,
      idempotent: true
    }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(HttpError)
    expect((err as HttpError).message).toMatch(/^Vercel: read the project failed with HTTP 403: "Not authorized"/)
    expect((err as HttpError).code).toBe('forbidden')
  })
})
