/**
 * When an open peer connection should take renewed ICE servers. Giving a connection new servers
 * (`setConfiguration`) makes the browser restart ICE at its next negotiation (JSEP), so open
 * connections are not handed every freshly issued TURN credential (each visit state carries new
 * ones): only when the servers themselves changed, or when theirs are a quarter of a lifetime older
 * than the fresh ones. With the state asked again at 70 % of the lifetime (use-ice-server-renewal),
 * an open connection's credentials are then never older than 95 % of their lifetime, so an ICE
 * restart (a network change) always finds valid ones, at the cost of one extra restart per quarter
 * lifetime at most.
 */

/** The expiry (unix seconds) of a TURN REST API username `<expiry>:<user>`, or null. */
export function turnExpiryOf(server: RTCIceServer): number | null {
  const match = /^(\d+):/.exec(server.username ?? '');
  return match ? Number(match[1]) : null;
}

/**
 * The servers without their issued credentials (which change with every issue), in one shape: a
 * browser's `getConfiguration()` gives `urls` as it was passed and empty strings for no username.
 */
function shapeOf(servers: readonly RTCIceServer[]): string {
  return JSON.stringify(
    servers.map((server) => {
      const urls = typeof server.urls === 'string' ? [server.urls] : [...server.urls];
      return turnExpiryOf(server) === null
        ? [urls, server.username ?? '', server.credential ?? '']
        : [urls, 'issued'];
    }),
  );
}

export function shouldRefreshIceServers(
  current: readonly RTCIceServer[],
  fresh: readonly RTCIceServer[],
  ttlSeconds: number | null,
): boolean {
  if (shapeOf(current) !== shapeOf(fresh)) {
    return true;
  }
  if (ttlSeconds === null) {
    return false;
  }
  const expiries = (servers: readonly RTCIceServer[]) =>
    servers.map(turnExpiryOf).filter((expiry): expiry is number => expiry !== null);
  const held = expiries(current);
  const offered = expiries(fresh);
  if (held.length === 0 || offered.length === 0) {
    return false;
  }
  return Math.max(...offered) - Math.min(...held) >= ttlSeconds / 4;
}
