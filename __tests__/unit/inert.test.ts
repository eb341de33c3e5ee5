/**
 * The inert renderings of outside text (src/publish/inert.ts), checked with a
 * CommonMark parser (mdast-util-from-markdown, micromark: what remark, our
 * docs linter, parses with) for what CommonMark forms, and by pattern for what
 * GitHub adds (extended autolinks, mentions, references, emoji).
 */
import { describe, expect, it } from '@jest/globals'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { logLine, markdownCode, markdownText, markdownUrl } from '../../src/publish/inert.js'

interface Node {
  type: string
  value?: string
  children?: Node[]
}

/** Every node type in the tree of `markdown`. */
function types(markdown: string): string[] {
  const out: string[] = []
  const walk = (n: Node): void => {
    out.push(n.type)
    n.children?.forEach(walk)
  }
  walk(fromMarkdown(markdown) as Node)
  return out
}

/** The text a CommonMark renderer shows for `markdown` (its text and code nodes). */
function shown(markdown: string): string {
  const parts: string[] = []
  const walk = (n: Node): void => {
    if (n.type === 'text' || n.type === 'inlineCode') parts.push(n.value ?? '')
    n.children?.forEach(walk)
  }
  walk(fromMarkdown(markdown) as Node)
  return parts.join('')
}

const HOSTILE = [
  '[link](https://evil.example) ![image](https://evil.example/i.png) [ref][1]\n\n[1]: https://evil.example',
  '<img src=x onerror=alert(1)> <https://evil.example> <mallory@evil.example> &lt;b&gt; &#x3C;',
  '# heading',
  '> [!WARNING]\n> alert',
  '- list\n1. ordered\n2) other',
  '---\n===',
  '```\nfence\n```',
  '`code` ``code`` *em* _em_ **strong** ~~strike~~ $math$ trailing\\',
  '| a | b |\n| --- | --- |',
  '<!-- preview-postgres:v1 {"mode":"instant","databaseId":"x"} -->',
  '1. starts like a list',
  '2) starts like a list',
  '+ plus',
  '= equals'
]

describe('markdownText', () => {
  it('forms nothing but one paragraph of text, whatever the input', () => {
    for (const input of HOSTILE) {
      const md = markdownText(input)
      expect(types(md)).toEqual(['root', 'paragraph', 'text'])
      // It shows the characters it was given (line breaks as spaces), plus only invisible U+200B.
      expect(shown(md).replace(/\u200b/g, '')).toBe(input.replace(/[\n\r]/g, ' ').trim())
    }
  })

  it('stays text inside a table cell, a list item and a block quote', () => {
    for (const input of HOSTILE) {
      const md = markdownText(input)
      expect(types(`> - ${md}`)).toEqual(['root', 'blockquote', 'list', 'listItem', 'paragraph', 'text'])
      expect(types(`**${md}**`)).toEqual(['root', 'paragraph', 'strong', 'text'])
    }
    // A pipe stays escaped, so a GitHub table cell (GFM spec 4.10) cannot end inside it.
    expect(markdownText('a | b')).toBe('a \\| b')
  })

  it('leaves nothing GitHub turns into a link, mention, reference or emoji', () => {
    const md = markdownText(
      'https://evil.example www.evil.example WWW.EVIL.EXAMPLE mallory@evil.example @octocat @acme/team #12 GH-1 :rocket: mailto:a@b.c'
    )
    const visible = shown(md)
    expect(visible).not.toMatch(/https?:\/\//) // GFM extended autolink (spec 6.9): scheme then ://
    expect(visible).not.toMatch(/www\./i) // www. autolink
    expect(visible).not.toMatch(/@[A-Za-z0-9]/) // email autolink, @mention, team mention
    expect(visible).not.toMatch(/#\d/) // issue reference
    expect(visible).not.toMatch(/:[a-z]+:/) // emoji shortcode
    expect(visible.replace(/\u200b/g, '')).toBe(
      'https://evil.example www.evil.example WWW.EVIL.EXAMPLE mallory@evil.example @octocat @acme/team #12 GH-1 :rocket: mailto:a@b.c'
    )
  })

  it('keeps plain text as it is, and cuts to `max` characters before escaping', () => {
    expect(markdownText('1 table added, 2 columns dropped')).toBe('1 table added, 2 columns dropped')
    expect(markdownText('alter table "public"."items" drop column "name"')).toBe('alter table "public"."items" drop column "name"')
    expect(markdownText('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`)
    expect(markdownText('<'.repeat(50), 10).length).toBe(19) // 9 escaped, then …
    expect(markdownText('#'.repeat(1000)).length).toBeLessThanOrEqual(3 * 1000)
    expect(markdownText('😀😀😀', 4)).toBe('😀…') // never half a surrogate pair
  })
})

describe('markdownCode', () => {
  it('is one code span that a backtick in the text cannot close', () => {
    for (const input of [...HOSTILE, '`', '``a``', 'a ` [x](https://evil.example) `']) {
      const md = markdownCode(input)
      expect(types(md)).toEqual(['root', 'paragraph', 'inlineCode'])
      expect(types(`| ${md} | x`)).not.toContain('link')
    }
    expect(markdownCode('db-`1`')).toBe("`db-'1'`")
    expect(markdownCode('a\nb')).toBe('`a b`')
  })
})

describe('markdownUrl', () => {
  it('keeps a canonical http(s) URL, and makes anything else inert text', () => {
    expect(markdownUrl('https://neon.new/claim/0190-abc')).toBe('https://neon.new/claim/0190-abc')
    for (const url of [
      'javascript:alert(1)',
      'HTTPS://neon.new/claim/x',
      'https://neon.new/a b [x](https://evil.example)',
      'https://evil.example)<img>'
    ]) {
      const md = markdownUrl(url)
      expect(types(md)).toEqual(['root', 'paragraph', 'text'])
      expect(shown(md).replace(/\u200b/g, '')).toBe(url)
    }
  })
})

describe('logLine', () => {
  it('is one line: a newline in the text cannot start a workflow command', () => {
    const line = logLine('db\n::error::pwned\r::warning::x\u2028::notice::y\u0085z')
    expect(line).not.toMatch(/[\n\r\u2028\u2029\u0085]/)
    expect(line.startsWith('::')).toBe(false)
    expect(logLine('x'.repeat(500)).length).toBe(200)
  })
})
