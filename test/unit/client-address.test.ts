import { describe, expect, test } from 'bun:test'
import { clientAddress, normalizeAddress, trustedAddresses } from '../../src/lib/client-address'

describe('normalizeAddress', () => {
  const cases: [string, string | null][] = [
    ['203.0.113.7', '203.0.113.7'],
    [' 203.0.113.7 ', '203.0.113.7'],
    ['203.0.113.7:51234', '203.0.113.7'],
    ['2001:DB8::1', '2001:db8::1'],
    ['2001:db8:0:0:0:0:0:1', '2001:db8::1'],
    ['[2001:db8::1]', '2001:db8::1'],
    ['[2001:db8::1]:443', '2001:db8::1'],
    ['::1', '::1'],
    ['fe80::1%eth0', 'fe80::1'],
    // what a dual-stack socket reports for an IPv4 client
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['::ffff:7f00:1', '127.0.0.1'],
    ['0:0:0:0:0:ffff:cb00:7107', '203.0.113.7'],
    ['unknown', null],
    ['', null],
    ['999.1.1.1', null],
    ['01.2.3.4', null],
    ['203.0.113.7:99999999', null],
    ['example.com', null],
    ['1.2.3.4, 5.6.7.8', null],
  ]
  for (const [value, expected] of cases)
    test(`${JSON.stringify(value)} → ${expected}`, () => {
      expect(normalizeAddress(value)).toBe(expected)
    })
})

describe('clientAddress', () => {
  const proxies = trustedAddresses(['127.0.0.1', '10.0.0.2', '2001:DB8::10'])
  const none = trustedAddresses([])

  test('trusted addresses are kept in their normalized spelling', () => {
    expect([...proxies]).toEqual(['127.0.0.1', '10.0.0.2', '2001:db8::10'])
  })

  const cases: [string, string | null, string | null, ReadonlySet<string>, string | null][] = [
    ['no proxies trusted: the socket address', '203.0.113.7', null, none, '203.0.113.7'],
    ['no proxies trusted: a forwarded header is ignored', '203.0.113.7', '198.51.100.20', none, '203.0.113.7'],
    ['an untrusted peer cannot claim another address', '203.0.113.7', '198.51.100.20', proxies, '203.0.113.7'],
    ['a trusted proxy: its right-most entry', '127.0.0.1', '198.51.100.20', proxies, '198.51.100.20'],
    ['a trusted proxy: entries the client wrote itself are skipped', '127.0.0.1', '1.1.1.1, 198.51.100.20', proxies, '198.51.100.20'],
    ['a chain of trusted proxies is walked from the right', '127.0.0.1', '1.1.1.1, 198.51.100.20, 10.0.0.2', proxies, '198.51.100.20'],
    ['a trusted proxy without a header: the proxy', '127.0.0.1', null, proxies, '127.0.0.1'],
    ['a trusted proxy with an empty header: the proxy', '127.0.0.1', ' , ', proxies, '127.0.0.1'],
    ['every entry trusted: the left-most', '127.0.0.1', '10.0.0.2, 127.0.0.1', proxies, '10.0.0.2'],
    ['an entry that is no address stops at the last hop vouched for', '127.0.0.1', '198.51.100.20, unknown', proxies, '127.0.0.1'],
    ['... also behind a second trusted hop', '127.0.0.1', 'garbage, 10.0.0.2', proxies, '10.0.0.2'],
    ['entries with ports and brackets', '127.0.0.1', '[2001:db8::5]:1234, 198.51.100.20:80', proxies, '198.51.100.20'],
    ['an IPv6 proxy in another spelling', '2001:db8:0::10', '2001:db8::5', proxies, '2001:db8::5'],
    ['a mapped IPv4 peer is the IPv4 proxy', '::ffff:127.0.0.1', '198.51.100.20', proxies, '198.51.100.20'],
    ['a mapped IPv4 peer not trusted', '::ffff:203.0.113.7', '198.51.100.20', proxies, '203.0.113.7'],
    ['no peer (in-process): unknown, whatever the header says', null, '198.51.100.20', proxies, null],
  ]
  for (const [what, peer, forwarded, trusted, expected] of cases)
    test(what, () => {
      expect(clientAddress(peer, forwarded, trusted)).toBe(expected)
    })
})
