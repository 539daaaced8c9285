/** A route of the app as Fastify prints it. */
export interface Route {
  method: string;
  url: string;
}

/**
 * Routes from Fastify's printed route tree (`app.printRoutes({ commonPrefix: false })`): each line adds
 * its segment to its parent's path, the methods are in parentheses. HEAD routes Fastify adds for GETs are
 * skipped. Read by the bad-input sweep (scripts/sweep.ts) and the OpenAPI test alike.
 */
export function routesFromTree(tree: string): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    const path = `${stack[depth - 1] ?? ''}${match[2] ?? ''}`;
    stack[depth] = path;
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) if (method !== 'HEAD') routes.push({ method, url: path });
  }
  return routes;
}
