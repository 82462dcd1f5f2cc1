/**
 * Where a page load's blocking time comes from, read off the load's trace (Lighthouse's, which it
 * records unthrottled and then simulates a phone from): every task of the page's main thread after
 * its first contentful paint counts `slowdown × duration − 50 ms` when that is positive — what
 * Lighthouse's simulation makes of it at its CPU slowdown (4× by default) — under the kind of work that filled most of it.
 * An estimate that names the work rather than Lighthouse's figure: the simulation also reorders
 * work around its simulated network and first paint, and in this project's runs this sum came out
 * 20–40 % above Lighthouse's own TBT.
 */

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string; data?: { url?: string; functionName?: string } };
}

export const blockingKinds = [
  'module evaluation',
  'React rendering (scheduler tasks)',
  'timers and promise callbacks',
  'style and layout',
  'HTML parsing',
  'events and messages',
  'other (browser work without a script or style event)',
] as const;
export type BlockingKind = (typeof blockingKinds)[number];

const taskNames = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);

/** Estimated blocking milliseconds per kind of work, for one page load's trace. */
export function blockingBreakdown(traceEvents: unknown[], slowdown = 4): Record<BlockingKind, number> {
  const events = traceEvents as TraceEvent[];
  const totals = zeroes();
  // The page's main thread: the renderer main thread with the most events.
  const counts = new Map<string, number>();
  const mainThreads = new Set(
    events
      .filter(
        (event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain',
      )
      .map((event) => `${event.pid}:${event.tid}`),
  );
  for (const event of events) {
    const key = `${event.pid}:${event.tid}`;
    if (mainThreads.has(key)) {
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!main) {
    return totals;
  }
  const onMain = events
    .filter((event) => `${event.pid}:${event.tid}` === main && event.ph === 'X' && event.dur !== undefined)
    .sort((a, b) => a.ts - b.ts);
  const paint = events.find(
    (event) => event.name === 'firstContentfulPaint' && `${event.pid}` === main.split(':')[0],
  );
  let taskEnd = -1;
  let index = 0;
  for (const task of onMain) {
    index += 1;
    if (!taskNames.has(task.name) || task.ts < taskEnd) {
      continue;
    }
    taskEnd = task.ts + task.dur!;
    const blocking = (slowdown * task.dur!) / 1000 - 50;
    if (blocking <= 0 || (paint && task.ts < paint.ts)) {
      continue;
    }
    const within = zeroes();
    for (let next = index; next < onMain.length && onMain[next]!.ts < taskEnd; next += 1) {
      const event = onMain[next]!;
      const kind = kindOf(event);
      if (kind) {
        within[kind] += event.dur!;
      }
    }
    let kind: BlockingKind = 'other (browser work without a script or style event)';
    let most = 0.3 * task.dur!;
    for (const candidate of blockingKinds) {
      if (within[candidate] > most) {
        kind = candidate;
        most = within[candidate];
      }
    }
    totals[kind] += blocking;
  }
  return totals;
}

function zeroes(): Record<BlockingKind, number> {
  return Object.fromEntries(blockingKinds.map((kind) => [kind, 0])) as Record<BlockingKind, number>;
}

function kindOf(event: TraceEvent): BlockingKind | null {
  switch (event.name) {
    case 'v8.evaluateModule':
      return 'module evaluation';
    case 'FunctionCall':
      // React's scheduler runs each slice of rendering, and each commit, as a call of its `S`.
      return / S$/.test(`${event.args?.data?.url ?? ''} ${event.args?.data?.functionName ?? ''}`)
        ? 'React rendering (scheduler tasks)'
        : null;
    case 'TimerFire':
      return 'timers and promise callbacks';
    case 'UpdateLayoutTree':
    case 'Layout':
      return 'style and layout';
    case 'ParseHTML':
      return 'HTML parsing';
    case 'EventDispatch':
    case 'XHRReadyStateChange':
    case 'HandlePostMessage':
      return 'events and messages';
    default:
      return null;
  }
}

/** The mean of several loads' breakdowns, kind by kind; null without any. */
export function meanBreakdown(
  breakdowns: Record<BlockingKind, number>[],
): Record<BlockingKind, number> | null {
  if (breakdowns.length === 0) {
    return null;
  }
  return Object.fromEntries(
    blockingKinds.map((kind) => [
      kind,
      breakdowns.reduce((sum, breakdown) => sum + breakdown[kind], 0) / breakdowns.length,
    ]),
  ) as Record<BlockingKind, number>;
}
