/**
 * Direct TLS (`sslnegotiation=direct`) for the run's own connections, and its
 * fallback: a server that does not take it (PostgreSQL before 17, a proxy
 * that expects the SSLRequest) gets a second connect with the SSLRequest, and
 * so does every later connect to that host in the run.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import net from 'node:net'
import { describeConnection, directClientConfig, fallBackFromDirectTls } from '../../src/connection.js'
import { connectDirect } from '../../src/pg-sessions.js'

/** The SSLRequest packet (PostgreSQL protocol, SSLRequest: length 8, code 80877103). */
const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f])

/** A server that ends a TLS ClientHello's connection, as PostgreSQL 16 does, and answers an SSLRequest 'N'. */
let server: net.Server
let port = 0
const seen: string[] = []

beforeAll(async () => {
  server = net.createServer((socket) => {
    socket.once('data', (first) => {
      if (first[0] === 0x16) {
        seen.push('TLS ClientHello')
        socket.destroy()
      } else if (first.subarray(0, 8).equals(SSL_REQUEST)) {
        seen.push('SSLRequest')
        socket.end('N')
      } else {
        seen.push('other')
        socket.destroy()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as net.AddressInfo).port
})

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

describe('directClientConfig', () => {
  it('starts TLS at once when the URL asks for TLS, and sends no TLS when it says sslmode=disable', () => {
    const tls = describeConnection('postgresql://u:p@ep-a-1-pooler.example.com/db?sslmode=require')
    expect(directClientConfig(tls, 'x')).toMatchObject({ sslnegotiation: 'direct', ssl: { servername: 'ep-a-1.example.com' } })
    const plain = describeConnection('postgresql://u:p@ep-a-1-pooler.example.com/db?sslmode=disable')
    const config = directClientConfig(plain, 'x')
    expect(config.ssl).toBe(false)
    expect(config.sslnegotiation).toBeUndefined()
  })

  it("does not fall back from the server's own ErrorResponse (a wrong password is not a TLS problem)", () => {
    const c = describeConnection('postgresql://u:p@ep-b-1-pooler.example.com/db?sslmode=require')
    const config = directClientConfig(c, 'x')
    expect(
      fallBackFromDirectTls(config, Object.assign(new Error('password authentication failed'), { severity: 'FATAL', code: '28P01' }))
    ).toBe(false)
    expect(directClientConfig(c, 'x').sslnegotiation).toBe('direct')
  })
})

describe('connectDirect', () => {
  it('connects once more with the SSLRequest when direct TLS is refused, and keeps to it for that host', async () => {
    const c = describeConnection(`postgresql://u:p@127.0.0.1:${port}/db?sslmode=require`)
    await expect(connectDirect(c, 'test')).rejects.toThrow(/does not support SSL/)
    expect(seen).toEqual(['TLS ClientHello', 'SSLRequest'])
    expect(directClientConfig(c, 'x').sslnegotiation).toBeUndefined()
    await expect(connectDirect(c, 'test')).rejects.toThrow(/does not support SSL/)
    expect(seen).toEqual(['TLS ClientHello', 'SSLRequest', 'SSLRequest'])
  })
})
