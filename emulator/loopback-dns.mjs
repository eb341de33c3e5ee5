// Test-only: resolves every *.localhost host name to 127.0.0.1, so the
// emulator can hand out connection strings with real-looking endpoint hosts
// (ep-…-pooler.us-east-2.localhost). Loaded into the action's process with
// `node --import` by the tests and the demo; the action itself has no hook.
import dns from 'node:dns'

const original = dns.lookup

dns.lookup = function lookup(hostname, options, callback) {
  if (typeof options === 'function') {
    callback = options
    options = {}
  }
  if (typeof hostname === 'string' && /(^|\.)localhost\.?$/i.test(hostname)) {
    const all = typeof options === 'object' && options !== null && options.all
    process.nextTick(() => (all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4)))
    return {}
  }
  return original.call(this, hostname, options, callback)
}
