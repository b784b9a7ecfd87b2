import type { Method, Route } from './route.js';

export interface Match {
  route: Route;
  params: Record<string, string>;
}

interface Compiled {
  route: Route;
  segments: string[];
  staticCount: number;
}

/** Path templates like `/wallets/{id}`; a static segment wins over a parameter (`/wallets/customer`). */
export class Router {
  private readonly routes: Compiled[] = [];

  constructor(routes: Route[]) {
    for (const route of routes) {
      const segments = route.path.split('/').filter(Boolean);
      this.routes.push({ route, segments, staticCount: segments.filter((s) => !s.startsWith('{')).length });
    }
    // More static segments first; on a tie, HTML-only routes first (they are the narrower match)
    this.routes.sort((a, b) => b.staticCount - a.staticCount || Number(b.route.html === true) - Number(a.route.html === true));
  }

  /** The route for this method and path (HEAD is served by GET), or `undefined`. */
  match(method: string, pathname: string, wantsHtml = false): Match | undefined {
    const parts = pathname.split('/').filter(Boolean);
    for (const compiled of this.routes) {
      if (compiled.route.method !== (method === 'HEAD' ? 'GET' : (method as Method))) continue;
      if (compiled.route.html && !wantsHtml) continue;
      const params = matchSegments(compiled.segments, parts);
      if (params) return { route: compiled.route, params };
    }
    return undefined;
  }
}

function matchSegments(segments: string[], parts: string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (segment.startsWith('{')) {
      let value: string;
      try {
        value = decodeURIComponent(parts[i]);
      } catch {
        return undefined;
      }
      params[segment.slice(1, -1)] = value;
    } else if (segment !== parts[i]) {
      return undefined;
    }
  }
  return params;
}
