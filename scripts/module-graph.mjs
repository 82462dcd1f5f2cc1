// Measures how the server's modules import each other: the cross-module import
// statements, the folder-level loops (strongly connected groups of module
// folders) and the pairs that import each other directly. Lint prevents new
// loops (serverModuleLayers in eslint.config.js); this prints the figures.
//   node scripts/module-graph.mjs [--tests] [--edges] [--detail]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, dirname, resolve, relative, sep } from 'node:path';
const root = resolve(import.meta.dirname, '../apps/server/src/modules');
const withTests = process.argv.includes('--tests');
const files = [];
(function walk(d) {
  for (const n of readdirSync(d)) {
    const p = join(d, n);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.tsx?$/.test(n) && (withTests || !/\.test\.ts$/.test(n))) files.push(p);
  }
})(root);
const moduleOf = (p) => {
  const r = relative(root, p);
  if (r.startsWith('..')) return null;
  const parts = r.split(sep);
  return parts.length === 1 ? parts[0].replace(/\.[jt]s$/, '') : parts[0];
};
const edges = new Map();
let count = 0;
const detail = [];
for (const f of files) {
  const src = readFileSync(f, 'utf8');
  const re = /(?:from\s+|import\s*\(\s*|import\s+)['"](\.[^'"]+)['"]/g;
  let m;
  const from = moduleOf(f);
  while ((m = re.exec(src))) {
    const to = moduleOf(resolve(dirname(f), m[1]));
    if (!to || to === from) continue;
    count++;
    detail.push(`${relative(root, f)} -> ${m[1]}`);
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from).add(to);
  }
}
// Tarjan
const nodes = new Set([...edges.keys(), ...[...edges.values()].flatMap((s) => [...s])]);
let i = 0;
const idx = new Map(),
  low = new Map(),
  st = [],
  on = new Set(),
  sccs = [];
function sc(v) {
  idx.set(v, i);
  low.set(v, i);
  i++;
  st.push(v);
  on.add(v);
  for (const w of edges.get(v) ?? []) {
    if (!idx.has(w)) {
      sc(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const c = [];
    let w;
    do {
      w = st.pop();
      on.delete(w);
      c.push(w);
    } while (w !== v);
    if (c.length > 1) sccs.push(c.sort());
  }
}
for (const v of nodes) if (!idx.has(v)) sc(v);
const pairs = [];
for (const [a, s] of edges) for (const b of s) if (a < b && edges.get(b)?.has(a)) pairs.push(`${a}<->${b}`);
console.log(
  `cross-module imports: ${count} (${[...edges.values()].reduce((n, s) => n + s.size, 0)} module-to-module edges)`,
);
console.log(`loops: ${sccs.length}`);
for (const c of sccs) console.log('  {' + c.join(', ') + '}');
console.log(`mutual pairs: ${pairs.length} ${pairs.join(' ')}`);
if (process.argv.includes('--edges'))
  for (const [a, s] of [...edges].sort()) console.log(`${a} -> ${[...s].sort().join(', ')}`);
if (process.argv.includes('--detail')) console.log(detail.join('\n'));
