import { useEffect } from 'react';
import { getRealtimeSocket } from '../../../lib/realtime';
import type { PeerMesh } from './peer-mesh';

/** `navigator.connection` where the browser has it (Network Information API). */
type ConnectionInfo = EventTarget & { type?: string };

/**
 * Recovers the call's connections when the network comes back or changes (wifi → mobile: new
 * local addresses): an ICE restart on every connection at once, instead of waiting for the old
 * path to time out. When the real-time connection dropped too, it reconnects by itself
 * (`lib/realtime.ts`) and joins again; the others then rebuild their connections with this page,
 * so restarting now would only send an offer nobody can receive.
 */
export function useNetworkRecovery(mesh: PeerMesh | null): void {
  useEffect(() => {
    if (!mesh) {
      return;
    }
    const restart = () => {
      void getRealtimeSocket().then((socket) => {
        if (socket.connected) {
          mesh.restartIce();
        }
      });
    };
    const connection = (navigator as Navigator & { connection?: ConnectionInfo }).connection;
    window.addEventListener('online', restart);
    connection?.addEventListener('change', restart);
    return () => {
      window.removeEventListener('online', restart);
      connection?.removeEventListener('change', restart);
    };
  }, [mesh]);
}
