import { isWebRoute, webRoutePatterns } from '@telemedicina/shared/web-routes';
import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from './routes';

/**
 * The full path of every route that can match on its own, as react-router flattens the tree: a
 * route with a path (a layout with children too) or an index route; pathless layouts only through
 * their children.
 */
function routerPatterns(tree: RouteObject[], parent = ''): string[] {
  return tree.flatMap((route) => {
    const path =
      route.path === undefined || route.path === ''
        ? parent
        : `${parent.replace(/\/$/, '')}/${route.path.replace(/^\//, '')}`;
    const own = route.path !== undefined || route.index === true ? [path === '' ? '/' : path] : [];
    return [...own, ...routerPatterns(route.children ?? [], path)];
  });
}

/** What the router shows at this path: true for a page, false for its not-found page (`*`). */
function routerDrawsPage(pathName: string): boolean {
  const matches = matchRoutes(routes, pathName);
  return matches !== null && matches.at(-1)?.route.path !== '*';
}

describe("the server's list of web addresses (packages/shared web-routes.ts)", () => {
  it("is exactly the router's routes, without the not-found catch-all", () => {
    const fromRouter = new Set(routerPatterns(routes).filter((pattern) => pattern !== '/*'));
    expect([...fromRouter].sort()).toEqual([...webRoutePatterns].sort());
  });

  it('matches every address the way the router does', () => {
    const samples = [
      '/',
      '//',
      '/register',
      '/REGISTER/',
      '/admin',
      '/admin/',
      '/admin/users/8d7f0c1e-5b8f-4a55-9d0e-2b8f3f5b9a10',
      '/admin/appointments/8d7f0c1e-5b8f-4a55-9d0e-2b8f3f5b9a10',
      '/admin/appointments/8d7f0c1e-5b8f-4a55-9d0e-2b8f3f5b9a10/note',
      '/admin/appointments/8d7f0c1e-5b8f-4a55-9d0e-2b8f3f5b9a10/nope',
      '/admin/visits/x/check',
      '/admin/patients/p1/prescriptions/new',
      '/admin/patients/p1/prescriptions',
      '/verify/ABCD-EFGH-JKMN',
      '/verify/a%20b',
      '/Admin/Settings',
      '/admin/x',
      '/admin/agenda/x',
      '/admin//users',
      '/some/unknown/page',
      '/assets',
      '/favicon.ico',
      '/error-500',
      '/error-404',
    ];
    for (const pathName of samples) {
      expect(isWebRoute(pathName), pathName).toBe(routerDrawsPage(pathName));
    }
    // The list above holds both kinds, so the comparison means something.
    expect(samples.filter((pathName) => isWebRoute(pathName)).length).toBeGreaterThan(5);
    expect(samples.filter((pathName) => !isWebRoute(pathName)).length).toBeGreaterThan(5);
  });

  it.each(webRoutePatterns.map((pattern) => [pattern]))('draws a page at %s', (pattern) => {
    const pathName = pattern.replace(/:[A-Za-z]+/g, 'f3b1c2d4-0000-4000-8000-000000000001');
    expect(routerDrawsPage(pathName)).toBe(true);
    expect(isWebRoute(pathName)).toBe(true);
  });
});
