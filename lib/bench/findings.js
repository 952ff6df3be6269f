'use strict'
// The sentence under each results table, computed from the table's figures: how cryptographer.js
// compares with the fastest other library in each row (leads, ties, trails, by how much), along
// the sizes for a table by input size, with the rows that broke a noise bound counted.
const { fmtRatio, fmtTime } = require('./format')

const list = (xs, max = 4) => (xs.length > max ? `${xs.slice(0, max).join(', ')} and ${xs.length - max} more` : xs.join(', '))
const range = (xs) => {
  const lo = Math.min(...xs)
  const hi = Math.max(...xs)
  return fmtRatio(lo) === fmtRatio(hi) ? fmtRatio(lo) : `${fmtRatio(lo)}–${fmtRatio(hi)}`.replace(/×–/, '–')
}

/** The rows of a table's records, in order: { group, x, ref, peers, variants, noisy }. */
function rowsOf(records) {
  const rows = new Map()
  for (const r of records) {
    if (!rows.has(r.group)) rows.set(r.group, { group: r.group, x: r.x, ref: null, peers: [], variants: [], noisy: Boolean(r.noise?.flags?.length) })
    const row = rows.get(r.group)
    if (r.ours && (r.ratio === null || r.ratio === undefined)) row.ref = row.ref || r
    else if (r.ours) row.variants.push(r)
    else row.peers.push(r)
  }
  return [...rows.values()]
}

/** The fastest peer of a row with ours ÷ it, or null. */
function bestPeer(row) {
  if (!row.ref || !row.peers.length) return null
  const p = row.peers.reduce((a, b) => (b.opsPerSec > a.opsPerSec ? b : a))
  return { name: p.name, ratio: p.ratio, verdict: p.verdict || (p.ratio > 1 ? 'win' : 'loss') }
}

const lead = (v) => ({ win: 'leads', tie: 'ties with', loss: 'trails' })[v]

/** Rows along a series (sizes, iterations): consecutive rows with the same verdict against the fastest peer, as phrases. */
function seriesFinding(rows) {
  const segs = []
  for (const row of rows) {
    const b = bestPeer(row)
    if (!b) continue
    const last = segs[segs.length - 1]
    if (last && last.verdict === b.verdict) {
      last.to = row.group
      last.ratios.push(b.ratio)
      last.peers.add(b.name)
    } else segs.push({ verdict: b.verdict, from: row.group, to: row.group, ratios: [b.ratio], peers: new Set([b.name]) })
  }
  if (!segs.length) return null
  const phrases = segs.map((s) => {
    const at = s.from === s.to ? `at ${s.from}` : `from ${s.from} to ${s.to}`
    const by = s.verdict === 'tie' ? '' : ` by ${range(s.verdict === 'loss' ? s.ratios.map((r) => 1 / r) : s.ratios)}`
    return `${lead(s.verdict)} ${list([...s.peers], 2)}${by} ${at}`
  })
  return { text: `Against the fastest other library in each row, cryptographer.js ${phrases.join('; ')}.`, segs }
}

/** Rows that are different operations: how many ours leads, ties, trails, and by how much. */
function rowsFinding(rows) {
  const by = { win: [], tie: [], loss: [] }
  for (const row of rows) {
    const b = bestPeer(row)
    if (b) by[b.verdict].push({ row, ...b })
  }
  const n = by.win.length + by.tie.length + by.loss.length
  if (!n) return null
  const parts = []
  if (by.win.length) {
    const peers = [...new Set(by.win.map((w) => w.name))]
    parts.push(`cryptographer.js is the fastest on ${by.win.length} of ${n} rows (${range(by.win.map((w) => w.ratio))} the next fastest: ${list(peers, 3)})`)
  }
  if (by.tie.length) parts.push(`ties on ${by.tie.length} (${list(by.tie.map((t) => `${t.row.group} with ${t.name}`), 3)})`)
  if (by.loss.length) parts.push(`trails on ${by.loss.length}: ${list(by.loss.map((l) => `${l.row.group}, ${fmtRatio(1 / l.ratio)} slower than ${l.name}`), 3)}`)
  const text = parts.join('; ')
  // A sentence starts with a capital, but cryptographer.js is spelt in lower case.
  return `${text.startsWith('cryptographer.js') ? text : `${text.charAt(0).toUpperCase()}${text.slice(1)}`}.`
}

/** Each cryptographer.js variant (kept key, another API) against the row's first contestant, or null. */
function variantsFinding(rows) {
  const ratios = new Map()
  for (const row of rows) {
    if (!row.ref) continue
    for (const v of row.variants) {
      if (!ratios.has(v.name)) ratios.set(v.name, { ref: row.ref.name, rs: [] })
      ratios.get(v.name).rs.push(1 / v.ratio)
    }
  }
  if (!ratios.size) return null
  return `${[...ratios].map(([name, { ref, rs }]) => `${name} runs at ${range(rs)} the rate of ${ref}`).join('; ')}.`
}

/** A table with one contestant a row: the spread of its times. */
function timesFinding(rows) {
  const timed = rows.map((r) => r.ref || r.variants[0] || r.peers[0]).filter(Boolean)
  if (!timed.length) return null
  const sorted = [...timed].sort((a, b) => b.opsPerSec - a.opsPerSec)
  const fast = sorted[0]
  const slow = sorted[sorted.length - 1]
  return fast === slow
    ? `${fast.name}: ${fmtTime(1 / fast.opsPerSec)} per operation.`
    : `From ${fmtTime(1 / fast.opsPerSec)} per operation (${fast.group}) to ${fmtTime(1 / slow.opsPerSec)} (${slow.group}).`
}

// Where the CPU's instructions set the pace, both sides run them: said when a series by input
// size or by iterations ends in ties.
const CONTEXT = [
  { test: /sha-?256|sha-?1\b|sha1|sha224/i, feature: 'sha_ni', text: 'both run SHA-NI, so the CPU sets the pace' },
  { test: /sha-?256|sha-?1\b|sha1|sha224/i, feature: 'sha2', text: 'both run the ARMv8 SHA-2 instructions, so the CPU sets the pace' },
  { test: /aes/i, feature: 'vaes', text: 'both run VAES, so the CPU sets the pace' },
]

/** The finding of one results table (its records), given the machine it ran on. */
function tableFinding(records, machine = null) {
  if (!records.length) return ''
  const rows = rowsOf(records)
  const series = rows.every((r) => r.x !== null && r.x !== undefined) && rows.length > 2
  let text
  if (series) {
    const s = seriesFinding([...rows].sort((a, b) => a.x - b.x))
    text = s?.text
    const last = s?.segs[s.segs.length - 1]
    const features = machine?.features || machine?.flags || []
    if (s && last.verdict === 'tie' && s.segs.length > 1) {
      const title = records[0].table
      const c = /by input size|by iterations/.test(title) && CONTEXT.find((k) => k.test.test(title) && features.includes(k.feature))
      if (c) text = `${text.slice(0, -1)} (${c.text}).`
    }
  } else text = rowsFinding(rows)
  const variants = variantsFinding(rows)
  text = [text, variants].filter(Boolean).join(' ') || timesFinding(rows) || ''
  const noisy = rows.filter((r) => r.noisy).length
  if (noisy) text += ` ${noisy} of ${rows.length} rows broke a noise bound (marked): read them with care.`
  return text
}

module.exports = { tableFinding, rowsOf, bestPeer }
