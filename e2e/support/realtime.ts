import type { Page } from 'playwright-core';

/**
 * Resolves when the page's Socket.IO client is connected: the server's CONNECT packet (`40…`) has
 * arrived over a WebSocket. The server joins the user's rooms in the same tick as it sends that
 * packet, so from then on an event for the user reaches this page. Call it before the navigation
 * that opens the connection (it listens for new WebSockets); it waits as long as the test allows.
 */
export function whenRealtimeConnected(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      if (!socket.url().includes('/socket.io/')) {
        return;
      }
      socket.on('framereceived', ({ payload }) => {
        if (typeof payload === 'string' && payload.startsWith('40')) {
          resolve();
        }
      });
    });
  });
}
