/**
 * One page of a GitHub REST listing as the emulator answers it (GitHub REST
 * docs, "Using pagination in the REST API"): `per_page` (default 30, at most
 * 100) and `page` (from 1) from the query, and a `Link` header with `next`
 * and `last` (and `first` and `prev` after page one), each the request's own
 * address and query with its `page` changed.
 */
import type { Reply, Request } from '../http-kit.js'

/** Page `page` of `items` for `req`, whose address is `url` (absolute, no query). */
export function githubPage(items: unknown[], req: Request, url: string): Reply {
  const perPage = Math.min(100, Number(req.query.get('per_page') ?? 30))
  const page = Math.max(1, Number(req.query.get('page') ?? 1))
  const last = Math.max(1, Math.ceil(items.length / perPage))
  const query = new URLSearchParams(req.query)
  const link = (p: number, rel: string): string => {
    query.set('page', String(p))
    return `<${url}?${query}>; rel="${rel}"`
  }
  const links = [
    ...(page < last ? [link(page + 1, 'next'), link(last, 'last')] : []),
    ...(page > 1 ? [link(1, 'first'), link(page - 1, 'prev')] : [])
  ]
  return {
    status: 200,
    body: items.slice((page - 1) * perPage, page * perPage),
    headers: links.length ? { link: links.join(', ') } : undefined
  }
}
